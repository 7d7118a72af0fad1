import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { z } from "zod/mini";
import { credentialNameMaxLength, locales, passwordMaxLength, usernameOrEmailMaxLength } from "../limits.ts";
import { hasChallenge, registrationResponseSchema } from "./flow.ts";
import { recoveryCodesSchema } from "./second-factor.ts";
import { storableText, typedText } from "./text.ts";

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
  /** Whether the person may remove it here: unless the account could not sign in without it. */
  removable: z.boolean(),
  /** E-mail addresses: the one e-mails about the account go to. */
  primary: z.optional(z.boolean()),
  /** The password: when it was last set. */
  updatedAt: z.optional(z.string()),
});
export type Credential = z.infer<typeof credentialSchema>;

export const accountSchema = z.object({
  /** Oldest first: ways to sign in, and second factors (an authenticator app is provider `totp`). */
  credentials: z.array(credentialSchema),
  /** Recovery codes not used yet; absent while the account has none. */
  recoveryCodesLeft: z.optional(z.int()),
  /** Addresses being added, oldest first, until the code e-mailed to each is typed (or expires). */
  pendingEmails: z.optional(z.array(z.object({ id: z.string(), email: z.string(), expiresAt: z.string() }))),
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

// Password and e-mail addresses (spec §5). A change or removal of the password proves the current one
// in `currentPassword`; without it, the browser's sign-in must be fresh.

// As typed, spaces and all: the server counts characters and normalizes (normalizePassword).
const password = storableText().check(z.maxLength(passwordMaxLength * 4));

/** `POST /account/password`: sets a first password, or changes it. */
export const passwordSetBodySchema = z.strictObject({
  password,
  currentPassword: z.optional(password),
});
/** `POST /account/passwordRemove`. */
export const passwordRemoveBodySchema = z.strictObject({ currentPassword: z.optional(password) });

/** `POST /account/emailAdd`: a code goes to the address; the answer is the same whoever has it. */
export const emailAddBodySchema = z.strictObject({
  email: typedText(usernameOrEmailMaxLength * 4).check(z.minLength(1)),
  /** The language of the page, which the e-mail is written in; else the browser's Accept-Language. */
  locale: z.optional(z.enum(locales)),
});
