import { z } from "zod/mini";
import { recoveryCodeLength } from "../limits.ts";
import { storableText } from "./text.ts";

// Second factors (an authenticator app, a passkey, recovery codes), the organizations' sign-in
// policies and the levels of assurance tokens name in `acr`.

/** What an organization asks of people signing in to its apps. */
export const signInPolicies = [
  /** Any way of signing in; a person who set up a second factor is still asked for it. */
  "any",
  /** A second factor after a password, a code or a provider; a passkey counts as both. */
  "secondFactor",
  /** A passkey: on its own, or after another way of signing in. */
  "passkey",
] as const;
export type SignInPolicy = (typeof signInPolicies)[number];

/**
 * The authentication context classes Vrata publishes (`acr_values_supported`), weakest first:
 * one factor; two factors (or a passkey, which is both); a phishing-resistant passkey.
 */
export const acrValues = ["aal1", "aal2", "phr"] as const;
export type AcrValue = (typeof acrValues)[number];

/** The level each policy asks for. */
export const policyAcr: Record<SignInPolicy, AcrValue> = {
  any: "aal1",
  secondFactor: "aal2",
  passkey: "phr",
};

/** Ways of proving a second factor in a flow. */
export const secondFactorMethods = ["totp", "passkey", "recoveryCode"] as const;
export type SecondFactorMethod = (typeof secondFactorMethods)[number];

/** Second factors a person can set up (recovery codes come with the first one). */
export const secondFactorSetUpMethods = ["totp", "passkey"] as const;

/** Who asks for the second factor the flow waits for, as the step tells the person. */
export const secondFactorReasons = [
  /** The person set one up. */
  "account",
  /** The organization's policy. */
  "organization",
  /** The app asked for a higher level (`acr_values`). */
  "app",
] as const;

/**
 * In the flow's state while the sign-in waits for a second factor: the methods the account can use
 * (none: it must set one up, from `setUp`).
 */
export const pendingSecondFactorSchema = z.object({
  /** `passkey` when only a passkey will do. */
  need: z.enum(["secondFactor", "passkey"]),
  reason: z.enum(secondFactorReasons),
  methods: z.array(z.enum(secondFactorMethods)),
  /** Present when the person has to set up a second factor now: the kinds they may set up. */
  setUp: z.optional(z.array(z.enum(secondFactorSetUpMethods))),
});
export type PendingSecondFactor = z.infer<typeof pendingSecondFactorSchema>;

/** An authenticator app's set-up: the `otpauth://` URI a QR code carries, and its secret as text. */
export const totpSetUpSchema = z.object({
  uri: z.string(),
  /** Base32, as authenticator apps take it when typed. */
  secret: z.string(),
  /** The URI's QR code: a `data:image/svg+xml` URL for an img. */
  qrCode: z.string(),
  /** Sealed by the server: sent back with the first code to confirm the set-up. */
  setUpToken: z.string(),
});
export type TotpSetUp = z.infer<typeof totpSetUpSchema>;

/** Recovery codes, shown once: when the first second factor is set up, or when made anew. */
export const recoveryCodesSchema = z.array(z.string());

export const totpCodeBodySchema = z.strictObject({ code: storableText().check(z.maxLength(64)) });
export const totpSetUpCompleteBodySchema = z.strictObject({
  setUpToken: z.string().check(z.maxLength(2000)),
  code: storableText().check(z.maxLength(64)),
});
export const recoveryCodeBodySchema = z.strictObject({
  code: storableText().check(z.maxLength(recoveryCodeLength * 4)),
});
