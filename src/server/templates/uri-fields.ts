import type { PublicClient, TemplateFields } from "../../common/api/template.ts";
import { isSecureUri } from "../../common/uris.ts";
import { namesInternalHost } from "../oidc/internal-addresses.ts";

export type UriErrorCode =
  "invalidHomepage" | "invalidRedirectUri" | "invalidPostLogoutRedirectUri" | "invalidBackchannelLogoutUri";

/** The URI templates of one field of a template. */
export interface UriTemplateField {
  /** The field's dotted path in a template (`clientsPublic.0.redirectUriTemplates`). */
  readonly field: string;
  /** The error code of a URI it gives that is not secure. */
  readonly code: UriErrorCode;
  readonly templates: readonly string[];
  /** Vrata itself calls the URIs it gives (back-channel logout), rather than sending browsers there. */
  readonly calledByVrata?: true;
}

/** What is wrong with a URI a field gives, filled in. */
export interface UriProblem {
  readonly code: UriErrorCode | "internalBackchannelLogoutUri";
  /** What the URI must be, for the message. */
  readonly rule: string;
}

/**
 * A URI's problem, if it has one: it is not secure, or Vrata would call it on an internal host
 * (loopback, a private network, localhost) while such calls are not allowed (`reachInternal`); Vrata
 * checks the addresses a name resolves to when it calls.
 */
export function uriProblem(
  field: Pick<UriTemplateField, "code" | "calledByVrata">,
  uri: string,
  reachInternal: boolean,
): UriProblem | undefined {
  if (field.calledByVrata && !reachInternal && URL.canParse(uri) && namesInternalHost(new URL(uri))) {
    return {
      code: "internalBackchannelLogoutUri",
      rule: "must not name an internal address, which Vrata does not call (--backchannel-logout-private)",
    };
  }
  if (!isSecureUri(uri)) return { code: field.code, rule: "must be an https:// URI without a fragment" };
  return undefined;
}

/** The URI fields every client that signs people in has, at the client's path `at`. */
const signInFields = (at: string, client: PublicClient): UriTemplateField[] => [
  { field: `${at}.redirectUriTemplates`, code: "invalidRedirectUri", templates: client.redirectUriTemplates },
  {
    field: `${at}.postLogoutRedirectUriTemplates`,
    code: "invalidPostLogoutRedirectUri",
    templates: client.postLogoutRedirectUriTemplates,
  },
];

/** Every field of a template that holds URI templates: its clients' first, the homepage last. */
export function uriTemplateFields(
  template: Pick<TemplateFields, "homepageTemplate" | "clientsPublic" | "clientsBackend">,
): UriTemplateField[] {
  const homepage = template.homepageTemplate;
  return [
    ...template.clientsPublic.flatMap((client, index) => signInFields(`clientsPublic.${index}`, client)),
    ...template.clientsBackend.flatMap((client, index) => {
      const at = `clientsBackend.${index}`;
      const backchannel = client.backchannelLogoutUriTemplate;
      return [
        ...signInFields(at, client),
        ...(backchannel
          ? [
              {
                field: `${at}.backchannelLogoutUriTemplate`,
                code: "invalidBackchannelLogoutUri" as const,
                templates: [backchannel],
                calledByVrata: true as const,
              },
            ]
          : []),
      ];
    }),
    ...(homepage
      ? [{ field: "homepageTemplate", code: "invalidHomepage" as const, templates: [homepage] }]
      : []),
  ];
}
