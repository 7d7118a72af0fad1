import { z } from "zod/mini";
import { providerKeyPattern } from "../../../common/ids.ts";
import { nameIdFormats } from "./saml-names.ts";

// A SAML identity provider as the operator declares it in the configuration file, e.g.
//   { "key": "eid", "type": "saml", "name": { "en": "National eID", "sl": "Nacionalna e-identiteta" },
//     "metadataUrl": "https://idp.example/metadata", "identifyBy": "nameId",
//     "attributes": { "email": "urn:oid:0.9.2342.19200300.100.1.3" } }

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The IdP's metadata carries the certificates every response is checked against, so it must come
 * over HTTPS; plain HTTP only from this machine, where nobody on the way can change it.
 */
const metadataUrlSchema = z.url({ protocol: /^https?$/ }).check(
  z.refine((value) => {
    const url = new URL(value);
    return url.protocol === "https:" || loopbackHosts.has(url.hostname);
  }, "must be an https:// URL (http:// only on this machine)"),
);

const attributeName = z.string().check(z.trim(), z.minLength(1), z.maxLength(1024));

/** Which SAML attribute (by its `Name`) fills each identity field. */
export const samlAttributeMappingSchema = z.strictObject({
  username: z.optional(attributeName),
  email: z.optional(attributeName),
  givenName: z.optional(attributeName),
  fullName: z.optional(attributeName),
  pictureUrl: z.optional(attributeName),
});

export type SamlAttributeMapping = z.infer<typeof samlAttributeMappingSchema>;
export type SamlIdentityField = keyof SamlAttributeMapping;

export const samlProviderSettingsSchema = z
  .strictObject({
    key: z.string().check(z.regex(providerKeyPattern, "must be 1 to 64 letters, digits, - or _")),
    type: z.literal("saml"),
    name: z.strictObject({
      en: z.string().check(z.trim(), z.minLength(1)),
      sl: z.string().check(z.trim(), z.minLength(1)),
    }),
    /** Where the IdP publishes its metadata; fetched at start and refreshed. */
    metadataUrl: z.optional(metadataUrlSchema),
    /** Or a file holding it (relative to the configuration file); read at start and re-read. */
    metadataFile: z.optional(z.string().check(z.minLength(1))),
    /** Which entity of a metadata file listing several (a federation's) is the IdP. */
    idpEntityId: z.optional(z.string().check(z.minLength(1))),
    /** Our entity ID at this IdP; `<issuer>/samlMetadata/<key>` by default. */
    entityId: z.optional(z.string().check(z.minLength(1))),
    /** The NameID format asked for; persistent by default when the NameID identifies people. */
    nameIdFormat: z.optional(z.string().check(z.minLength(1))),
    /** What identifies a person: the NameID (not a transient one) or the value of an attribute. */
    identifyBy: z._default(
      z.union([z.literal("nameId"), z.strictObject({ attribute: attributeName })]),
      "nameId",
    ),
    attributes: z._default(samlAttributeMappingSchema, {}),
  })
  .check((context) => {
    const settings = context.value;
    if ((settings.metadataUrl === undefined) === (settings.metadataFile === undefined)) {
      context.issues.push({
        code: "custom",
        input: settings,
        path: [],
        message: "takes exactly one of metadataUrl and metadataFile",
      });
    }
    if (settings.identifyBy === "nameId" && settings.nameIdFormat === nameIdFormats.transient) {
      context.issues.push({
        code: "custom",
        input: settings,
        path: ["nameIdFormat"],
        message: "a transient NameID changes at every sign-in: identify people by an attribute instead",
      });
    }
  });

/** A SAML provider's settings, with the defaults filled in. */
export type SamlProviderSettings = z.infer<typeof samlProviderSettingsSchema>;

/** The NameID format Vrata asks the IdP for, if any. */
export function requestedNameIdFormat(settings: SamlProviderSettings): string | undefined {
  return settings.nameIdFormat ?? (settings.identifyBy === "nameId" ? nameIdFormats.persistent : undefined);
}
