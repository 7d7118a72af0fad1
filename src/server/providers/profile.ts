import { identityFieldsSchema, type IdentityFields } from "../../common/api/identity.ts";
import { validIdentityFields } from "../identities/identities.ts";
import type { UpstreamIdentity, UpstreamProfile } from "./upstream.ts";

const profileFields = ["username", "email", "givenName", "fullName", "pictureUrl"] as const;

/** Whether one field's value is one an identity may hold (a provider's username may have spaces, say). */
function acceptable(field: (typeof profileFields)[number], value: string): boolean {
  if (!identityFieldsSchema.shape[field].safeParse(value).success) return false;
  try {
    validIdentityFields({ [field]: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The first identity of an account that signed up with a provider: the fields the provider filled
 * that an identity may hold. With none of them, the identity is named after the provider and the
 * person's subject there.
 */
export function identityFromProfile(profile: UpstreamProfile, key: string, subject: string): IdentityFields {
  const fields: IdentityFields = {};
  for (const field of profileFields) {
    const value = profile[field];
    if (value !== undefined && acceptable(field, value)) fields[field] = value;
  }
  if (fields.username === undefined && fields.email !== undefined) {
    const localPart = fields.email.split("@")[0] ?? "";
    if (acceptable("username", localPart)) fields.username = localPart;
  }
  if (!profileFields.some((field) => fields[field] !== undefined)) {
    fields.username = `${key}-${subject.replace(/[^\w-]/g, "").slice(0, 40) || "user"}`;
  }
  return fields;
}

/** What the account page calls the credential: the person's name or address at the provider. */
export function credentialName(identity: UpstreamIdentity): string {
  const { username, email, fullName } = identity.profile;
  return (username ?? email ?? fullName ?? identity.subject).slice(0, 200);
}
