import { z } from "zod";
import { codeLength, locales, passwordMaxLength, usernameOrEmailMaxLength } from "../limits.ts";
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

/** Credentials a person can prove in a flow. Passkeys and third-party providers come later. */
export const flowProviders = ["password", "code"] as const;
export type FlowProvider = (typeof flowProviders)[number];

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
] as const;
export type FlowError = (typeof flowErrors)[number];

export const flowResponseSchema = z.object({
  completed: z.array(z.enum(completedStates)),
  organizationId: z.string(),
  appId: z.string(),
  /** Shown on the flow page: "<app> from <organization> asks you to sign in or sign up". */
  organizationName: z.string(),
  appName: z.string(),
  providers: z.array(z.enum(flowProviders)).optional(),
  emailOrUsername: z.string().optional(),
  /** How many codes were sent in this flow (the UI shows "sent (Nx)"). */
  codesSent: z.number().int().optional(),
  /** The language the app asked for (`ui_locales`); the page uses it unless the person chose one. */
  locale: z.enum(locales).optional(),
  /** Where "Homepage" leads once the flow has finished. */
  homepage: z.string().optional(),
  error: z.enum(flowErrors).optional(),
});
export type FlowResponse = z.infer<typeof flowResponseSchema>;

const emailOrUsername = storableText().max(usernameOrEmailMaxLength * 4);

export const emailOrUsernameBodySchema = z.strictObject({ emailOrUsername });
export const passwordBodySchema = z.strictObject({ password: storableText().max(passwordMaxLength * 4) });
export const codeBodySchema = z.strictObject({ code: storableText().max(codeLength * 8) });
export const emptyBodySchema = z.strictObject({});
export const chooseIdentityBodySchema = z.strictObject({
  identity: z.strictObject({ id: idText() }),
});

/** `POST /auth/signout`: where the console goes afterwards (a path of this site). */
export const signOutBodySchema = z.strictObject({ location: storableText().max(2000).optional() });
export const signOutResponseSchema = z.object({ location: z.string() });
