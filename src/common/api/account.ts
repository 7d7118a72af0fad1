import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { z } from "zod/mini";
import { credentialNameMaxLength } from "../limits.ts";
import { hasChallenge, registrationResponseSchema } from "./flow.ts";
import { recoveryCodesSchema } from "./second-factor.ts";
import { typedText } from "./text.ts";

// The signed-in person's account (spec §2, Account): the ways it signs in, and its passkeys managed.

/** Kinds of credentials an account has: a username names it, second factors (an authenticator app, recovery codes) follow a first one, the others sign it in. */
export const credentialProviders = [
  "username",
  "email",
  "password",
  "passkey",
  "totp",
  "recoveryCodes",
] as const;
export type CredentialProvider = (typeof credentialProviders)[number];

export const credentialSchema = z.object({
  id: z.string(),
  /** One of {@link credentialProviders}, or a third-party provider's key. */
  provider: z.string(),
  /** The username, the e-mail address, or the passkey's name; empty for a password. */
  name: z.string(),
  createdAt: z.string(),
  /** Passkeys: when one last signed in. */
  lastUsedAt: z.optional(z.string()),
  /** Passkeys: the authenticator's make, when its AAGUID is a known one. */
  authenticator: z.optional(z.string()),
  /** Passkeys: may be copied to the person's other devices, and has been backed up. */
  synced: z.optional(z.boolean()),
  backedUp: z.optional(z.boolean()),
  /** Whether the person may remove it here: passkeys, unless it is the last way to sign in. */
  removable: z.boolean(),
});
export type Credential = z.infer<typeof credentialSchema>;

export const accountSchema = z.object({
  /** Oldest first: ways to sign in, and second factors (an authenticator app is provider `totp`). */
  credentials: z.array(credentialSchema),
  /** Recovery codes not used yet; absent while the account has none. */
  recoveryCodesLeft: z.optional(z.int()),
});
export type Account = z.infer<typeof accountSchema>;

export const passkeyCreateStartResponseSchema = z.object({
  createOptions: z.custom<PublicKeyCredentialCreationOptionsJSON>(hasChallenge),
});

const credentialName = typedText(credentialNameMaxLength).check(z.minLength(1));

export const accountPasskeyCreateBodySchema = z.strictObject({
  response: registrationResponseSchema,
  name: z.optional(credentialName),
  /** Without `name`: what to call it, in the reader's language, when its authenticator is not known. */
  defaultName: z.optional(credentialName),
});
export const credentialRenameBodySchema = z.strictObject({ name: credentialName });

/** `POST /account/providerLinkStart/:provider`: where to send the browser to sign in at the provider. */
export const providerLinkStartResponseSchema = z.object({ location: z.url() });

/** How linking a provider went, as the account page's address tells it once the browser is back. */
export const providerLinkStatuses = ["linked", "taken", "denied", "failed"] as const;
export type ProviderLinkStatus = (typeof providerLinkStatuses)[number];

/** What the browser needs to forget a passkey: `PublicKeyCredential.signalUnknownCredential`. */
export const signalUnknownSchema = z.object({ rpId: z.string(), credentialId: z.string() });

export const credentialRemoveResponseSchema = z.extend(accountSchema, {
  signalUnknown: z.optional(signalUnknownSchema),
});

/** An authenticator app confirmed: the account, and its recovery codes when they were made with it. */
export const totpSetUpCompleteResponseSchema = z.extend(accountSchema, {
  recoveryCodes: z.optional(recoveryCodesSchema),
});

/** `POST /account/recoveryCodes`: the new codes, shown once. */
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: recoveryCodesSchema });
