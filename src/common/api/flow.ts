import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";
import { z } from "zod/mini";
import { providerKeyPattern } from "../ids.ts";
import {
  codeLength,
  identityNameMaxLength,
  locales,
  passwordMaxLength,
  usernameOrEmailMaxLength,
} from "../limits.ts";
import { appScopeSchema } from "./app-scope.ts";
import { pendingSecondFactorSchema, recoveryCodesSchema, totpSetUpSchema } from "./second-factor.ts";
import { personalDataScopes } from "../scopes.ts";
import { idText, storableText } from "./text.ts";

// The auth flow's JSON API (reference §4.3-§4.6): every step answers with the flow's state, and a
// step the person can correct answers 400 with the state plus `error`.

export const completedStates = [
  "signin",
  "signup",
  "failed",
  "identity",
  "declined",
  "finishReady",
  "finished",
] as const;
export type Completed = (typeof completedStates)[number];

/** Credentials a person can prove in a flow; a third-party provider goes by its configured key. */
export const flowProviders = ["password", "code", "passkey"] as const;
export type BuiltInFlowProvider = (typeof flowProviders)[number];
/** One of {@link flowProviders}, or a third-party provider's key. */
export type FlowProvider = string;

/**
 * What a passkey sign-up's naming of its first identity can get wrong: a username or a name, and an
 * e-mail address if given.
 */
export const signUpNameErrors = [
  /** Neither a username nor a name was typed. */
  "missingName",
  /** One word, so a username, shorter than a username may be. */
  "shortUsername",
  /** One word, so a username, that a username may not be (an @, look-alike letters, too long). */
  "invalidUsername",
  /** Several words, so a name, that a name may not be (too long, characters that cannot be shown). */
  "invalidName",
  /** The optional e-mail address is not one. */
  "invalidEmail",
] as const;
export type SignUpNameError = (typeof signUpNameErrors)[number];

/** Mistakes the person can correct; the UI shows the matching message of spec §8 at the step. */
export const flowErrors = [
  "invalidEmailOrUsername",
  "shortEmailOrUsername",
  "invalidPassword",
  "shortPassword",
  "wrongPassword",
  "noEmails",
  "noAccount",
  "invalidCode",
  /** Too many attempts from this network or on this account for now; wait and try again. */
  "tooManyAttempts",
  /** A code was sent less than the resend cooldown ago. */
  "codeRecentlySent",
  /** Too many codes were sent to this address, for this account or from this network for now. */
  "tooManyCodes",
  /** The passkey's answer could not be verified (or was for another site or request); try again. */
  "passkeyFailed",
  /** The recovery code is not one of the account's unused codes. */
  "invalidRecoveryCode",
  ...signUpNameErrors,
] as const;
export type FlowError = (typeof flowErrors)[number];

/** Whether a value looks like WebAuthn options: they carry their challenge. */
export const hasChallenge = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { challenge?: unknown }).challenge === "string";

/** What the browser passes to WebAuthn (`startAuthentication` / `startRegistration` take it as it is). */
const passkeyOptionsSchema = z.union([
  z.object({ getOptions: z.custom<PublicKeyCredentialRequestOptionsJSON>(hasChallenge) }),
  z.object({ createOptions: z.custom<PublicKeyCredentialCreationOptionsJSON>(hasChallenge) }),
]);

export const flowResponseSchema = z.object({
  completed: z.array(z.enum(completedStates)),
  organizationId: z.string(),
  appId: z.string(),
  /** Shown on the flow page: "<app> from <organization> asks you to sign in or sign up". */
  organizationName: z.string(),
  appName: z.string(),
  providers: z.optional(z.array(z.string().check(z.regex(providerKeyPattern)))),
  emailOrUsername: z.optional(z.string()),
  /** How many codes were sent in this flow (the UI shows "sent (Nx)"). */
  codesSent: z.optional(z.int()),
  /** Seconds until another code may be sent, while the last one went out too recently. */
  resendInSeconds: z.optional(z.int()),
  /**
   * Only in the answer of a password step that sent a code: `wrong` for a username whose password was
   * wrong (the code went to the account's addresses); `undisclosed` for an e-mail address, whose answer
   * is the same whether it has an account (the password was wrong) or not (the code proves it for a
   * sign-up).
   */
  codeAfterPassword: z.optional(z.enum(["wrong", "undisclosed"])),
  /** The sign-in is to the person's own account page: it has no identity step. */
  accountPage: z.optional(z.literal(true)),
  /** The browser was signed in already: the flow starts at the identity step (single sign-on). */
  singleSignOn: z.optional(z.literal(true)),
  /** The language the app asked for (`ui_locales`); the page uses it unless the person chose one. */
  locale: z.optional(z.enum(locales)),
  /** The scopes of the app's own API the app asks for, with their descriptions in each language. */
  appScopes: z.optional(z.array(appScopeSchema)),
  /** The OpenID scopes asked for that give the app data of the identity chosen (its name, its e-mail). */
  personalData: z.optional(z.array(z.enum(personalDataScopes))),
  /** Where "Homepage" leads once the flow has finished. */
  homepage: z.optional(z.string()),
  error: z.optional(z.enum(flowErrors)),
  /** Only in the answer of a passkey start step: the ceremony's options with its challenge. */
  passkey: z.optional(passkeyOptionsSchema),
  /**
   * Only with `noAccount` from a passkey sign-in: the passkey this server does not know, for
   * `PublicKeyCredential.signalUnknownCredential`, so the browser stops offering it.
   */
  signalUnknown: z.optional(z.object({ rpId: z.string(), credentialId: z.string() })),
  /** The first factor is proven and the sign-in waits for a second one (or for one to be set up). */
  secondFactor: z.optional(pendingSecondFactorSchema),
  /**
   * Every factor is proven, but the account is to be deleted at this time (ISO 8601): the sign-in
   * goes on only once the person keeps the account (deletionCancel), or ends (decline).
   */
  deletionDueAt: z.optional(z.string()),
  /** Only in the answer of totpSetUpStart: the authenticator app to add. */
  totpSetUp: z.optional(totpSetUpSchema),
  /** Only in the answer of the step that set up the account's first second factor: shown once. */
  recoveryCodes: z.optional(recoveryCodesSchema),
  /** Only in the answer of providerStart: where the browser goes to sign in with the provider. */
  thirdPartyProvider: z.optional(z.object({ location: z.url() })),
  /**
   * The flow failed because the third-party provider answered with an error: `denied` when the person
   * (or the provider) refused, `failed` for any other error.
   */
  providerError: z.optional(z.object({ provider: z.string(), error: z.enum(["denied", "failed"]) })),
});
export type FlowResponse = z.infer<typeof flowResponseSchema>;

const emailOrUsername = storableText().check(z.maxLength(usernameOrEmailMaxLength * 4));

export const emailOrUsernameBodySchema = z.strictObject({ emailOrUsername });
export const passwordBodySchema = z.strictObject({
  password: storableText().check(z.maxLength(passwordMaxLength * 4)),
});
export const codeBodySchema = z.strictObject({ code: storableText().check(z.maxLength(codeLength * 8)) });
export const emptyBodySchema = z.strictObject({});
/**
 * A passkey sign-up's first step: who the new account's first identity is, a username or a name in
 * one field and an e-mail address if the person gives one, and the page's language, which names the
 * new passkey ("Passkey, 28 Nov 2026").
 */
export const passkeyCreateStartBodySchema = z.strictObject({
  name: storableText().check(z.maxLength(Math.max(identityNameMaxLength, usernameOrEmailMaxLength) * 4)),
  email: z.optional(storableText().check(z.maxLength(usernameOrEmailMaxLength * 4))),
  locale: z.optional(z.enum(locales)),
});
export const providerStartBodySchema = z.strictObject({
  provider: z.string().check(z.regex(providerKeyPattern)),
});
export const chooseIdentityBodySchema = z.strictObject({
  identity: z.strictObject({ id: idText() }),
});

// WebAuthn answers as `@simplewebauthn/browser` sends them. Browsers add fields of their own, so
// unknown fields are dropped rather than refused; every value is bounded (a credential ID has at most
// 1023 bytes, an attestation with its certificates a few kilobytes).
const base64url = (max: number) => z.string().check(z.maxLength(max), z.regex(/^[\w-]*$/, "not base64url"));
const credentialId = base64url(1400).check(z.minLength(1));
const extensionResults = z.record(z.string(), z.unknown());

const authenticationResponseSchema: z.ZodMiniType<AuthenticationResponseJSON> = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(8000),
    authenticatorData: base64url(8000),
    signature: base64url(2000),
    userHandle: z.optional(base64url(100)),
  }),
  authenticatorAttachment: z.optional(z.enum(["platform", "cross-platform"])),
  clientExtensionResults: extensionResults,
});

export const registrationResponseSchema: z.ZodMiniType<RegistrationResponseJSON> = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(8000),
    attestationObject: base64url(40_000),
    authenticatorData: z.optional(base64url(8000)),
    transports: z.optional(
      z
        .array(z.enum(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]))
        .check(z.maxLength(10)),
    ),
    publicKeyAlgorithm: z.optional(z.int()),
    publicKey: z.optional(base64url(8000)),
  }),
  authenticatorAttachment: z.optional(z.enum(["platform", "cross-platform"])),
  clientExtensionResults: extensionResults,
});

export const passkeyGetBodySchema = z.strictObject({ response: authenticationResponseSchema });
export const passkeyCreateBodySchema = z.strictObject({ response: registrationResponseSchema });

/** `POST /auth/signout`: where the console goes afterwards (a path of this site). */
export const signOutBodySchema = z.strictObject({
  location: z.optional(storableText().check(z.maxLength(2000))),
});
export const signOutResponseSchema = z.object({ location: z.string() });
