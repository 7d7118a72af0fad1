import type { Profile } from "@node-saml/node-saml";
import { samlSubjectMaxLength } from "../../../common/limits.ts";
import { SamlError } from "./errors.ts";
import { nameIdFormats, stableNameIdFormats } from "./saml-names.ts";
import type { SamlIdentityField, SamlProviderSettings } from "./settings.ts";

/** Who signed in at the IdP, as the sign-in flow takes it. */
export interface SamlIdentity {
  /**
   * The person's stable ID at this IdP: the NameID, or the identifying attribute's value. With the
   * provider's key it is the credential.
   */
  subject: string;
  /** The NameID as sent, whatever identifies the person. */
  nameId: { value: string; format: string | undefined } | undefined;
  /** Identity fields filled from the mapped attributes (only those sent and not empty). */
  identity: Partial<Record<SamlIdentityField, string>>;
  /** SAML has no standard way to say an address was verified: an upstream e-mail never counts as one. */
  emailVerified: false;
}

/** The first text value of an attribute, trimmed; undefined when it has none. */
function firstText(value: unknown): string | undefined {
  const values: unknown[] = Array.isArray(value) ? value : [value];
  for (const candidate of values) {
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate.trim();
  }
  return undefined;
}

function attributeText(profile: Profile, name: string): string | undefined {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  return Object.hasOwn(attributes, name) ? firstText(attributes[name]) : undefined;
}

function subjectOf(settings: SamlProviderSettings, profile: Profile): string {
  if (settings.identifyBy !== "nameId") {
    const { attribute } = settings.identifyBy;
    const value = attributeText(profile, attribute);
    if (value === undefined)
      throw new SamlError("samlSubjectMissing", `the response has no ${attribute} attribute`);
    return value;
  }
  const value = typeof profile.nameID === "string" ? profile.nameID.trim() : "";
  if (value === "") throw new SamlError("samlSubjectMissing", "the response has no NameID");
  const format = typeof profile.nameIDFormat === "string" ? profile.nameIDFormat : undefined;
  if (format === nameIdFormats.transient) {
    throw new SamlError("samlTransientNameId", "a transient NameID cannot identify a person again");
  }
  const accepted =
    format !== undefined && (format === settings.nameIdFormat || stableNameIdFormats.has(format));
  if (!accepted) {
    throw new SamlError(
      "samlNameIdFormat",
      `a NameID of format ${format ?? "(none)"} does not identify a person`,
    );
  }
  return value;
}

/** The person a validated assertion names, and what its attributes say about them. */
export function identityFromProfile(settings: SamlProviderSettings, profile: Profile): SamlIdentity {
  const subject = subjectOf(settings, profile);
  if (subject.length > samlSubjectMaxLength) {
    throw new SamlError(
      "samlResponseInvalid",
      `the person's ID is longer than ${samlSubjectMaxLength} characters`,
    );
  }
  const identity: Partial<Record<SamlIdentityField, string>> = {};
  for (const [field, attribute] of Object.entries(settings.attributes) as [SamlIdentityField, string?][]) {
    const value = attribute === undefined ? undefined : attributeText(profile, attribute);
    if (value !== undefined) identity[field] = value;
  }
  const nameId =
    typeof profile.nameID === "string" && profile.nameID !== ""
      ? {
          value: profile.nameID,
          format: typeof profile.nameIDFormat === "string" ? profile.nameIDFormat : undefined,
        }
      : undefined;
  return { subject, nameId, identity, emailVerified: false };
}
