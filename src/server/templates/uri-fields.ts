import type { PublicClient, TemplateFields } from "../../common/api/template.ts";

export type UriErrorCode =
  "invalidHomepage" | "invalidRedirectUri" | "invalidPostLogoutRedirectUri" | "invalidBackchannelLogoutUri";

/** The URI templates of one field of a template. */
export interface UriTemplateField {
  /** The field's dotted path in a template (`clientsPublic.0.redirectUriTemplates`). */
  readonly field: string;
  /** The error code of a URI it gives that is not secure. */
  readonly code: UriErrorCode;
  readonly templates: readonly string[];
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
