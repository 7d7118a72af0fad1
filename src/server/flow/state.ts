import type { Completed, FlowProvider } from "../../common/api/flow.ts";
import type { AcrValue, PendingSecondFactor } from "../../common/api/second-factor.ts";
import type { IdentityFields } from "../../common/api/identity.ts";
import type { Locale } from "../../common/limits.ts";
import type { PersonalDataScope } from "../../common/scopes.ts";

/** A code sent by e-mail: only its hash is kept. */
export interface SentCode {
  hash: string;
  expiresAt: number;
}

/** What a correct code completes: signing in to an account, or signing up with a verified e-mail. */
export type CodeTarget =
  | { kind: "signin"; accountId: string }
  | { kind: "signup"; email: string; emailDisplay: string; passwordHash?: string };

export interface CodeState {
  /** The identifier the codes were sent for; typing another one starts over. */
  identifierKey: string;
  codes: SentCode[];
  sent: number;
  lastSentAt: number;
  target: CodeTarget;
}

/**
 * A passkey ceremony under way: the challenge the browser's answer must sign. It is used once, and
 * lives no longer than the flow.
 */
export type PasskeyState =
  | { ceremony: "get"; challenge: string }
  | {
      ceremony: "create";
      challenge: string;
      /** The WebAuthn user handle of the account the passkey is made for (base64url of 16 bytes). */
      userHandle: string;
      /**
       * The new account's first identity, as the person named it before the ceremony; absent from a
       * ceremony a server of an earlier version started, which did not ask.
       */
      identity?: IdentityFields;
      /** The language the new passkey's default name is in; absent like `identity`. */
      locale?: Locale;
    };

/** Everything a flow remembers between steps (reference §2.6, without the home-made crypto). */
export interface FlowState {
  completed: Completed[];
  providers: FlowProvider[];
  emailOrUsername?: string;
  accountId?: string;
  sessionId?: string;
  /**
   * The browser was signed in to the account already (single sign-on): the flow proved nothing anew,
   * so the session keeps its time and methods of signing in.
   */
  singleSignOn?: boolean;
  /** Set once the auth step is done: whether it signed up a new account. */
  signedUp?: boolean;
  identityId?: string;
  /** When the last factor was proven, in seconds. */
  authTime?: number;
  /** The methods proven so far (RFC 8176 references); the ID token's `amr`. */
  amr?: string[];
  /** The first factor is proven and the sign-in waits for this second one (or for one to be set up). */
  secondFactor?: PendingSecondFactor;
  /**
   * The account is to be deleted at this time (ms): once every factor is proven, the sign-in waits for
   * its person to keep the account (deletion-pending.ts).
   */
  deletionDueAt?: number;
  code?: CodeState;
  passkey?: PasskeyState;
  /** The sign-in at a third-party provider the flow waits for: the provider and the request's ID. */
  upstream?: { provider: string; request: string };
  /** The third-party provider answered with an error, which failed the flow. */
  providerError?: { provider: string; error: "denied" | "failed" };
  /** Language the app asked for with `ui_locales`; e-mails use it before Accept-Language. */
  locale?: Locale;
  /** The scopes of the app's own API that the request asks for (the identity step names them). */
  appScopes?: string[];
  /** The OpenID scopes the request asks for that give the app the identity's data (named there too). */
  personalData?: PersonalDataScope[];
  /** The level the app asked for with `acr_values`. */
  requestedAcr?: AcrValue;
}

/** What the authorization request asks for, as the identity step names it, and the level it asks for. */
export interface RequestedAccess {
  appScopes: readonly string[];
  personalData: readonly PersonalDataScope[];
  requestedAcr?: AcrValue | undefined;
}

export const newFlowState = (
  locale?: Locale,
  { appScopes, personalData, requestedAcr }: RequestedAccess = { appScopes: [], personalData: [] },
): FlowState => ({
  completed: [],
  providers: [],
  ...(locale ? { locale } : {}),
  ...(requestedAcr ? { requestedAcr } : {}),
  ...(appScopes.length > 0 ? { appScopes: [...appScopes] } : {}),
  ...(personalData.length > 0 ? { personalData: [...personalData] } : {}),
});

/** The states each new state may follow; some replace the last one instead of following it. */
const follows: Record<Completed, { after: (Completed | "none")[]; replaces?: Completed[] }> = {
  signin: { after: ["none"] },
  signup: { after: ["none"] },
  failed: { after: ["none"] },
  identity: { after: ["signin", "signup"], replaces: ["identity", "declined"] },
  declined: { after: ["signin", "signup"], replaces: ["identity", "declined"] },
  // Straight after the sign-in only for the account page, which asks for no identity (outcome.ts).
  finishReady: { after: ["signin", "signup", "failed", "identity", "declined"], replaces: ["finishReady"] },
  finished: { after: ["finishReady"] },
};

export function lastCompleted(state: FlowState): Completed | undefined {
  return state.completed.at(-1);
}

/** Adds a completed state if the transition is legal (reference §4.1); false otherwise. */
export function addCompleted(state: FlowState, next: Completed): boolean {
  const last = lastCompleted(state);
  const rule = follows[next];
  if (last !== undefined && rule.replaces?.includes(last)) {
    state.completed = [...state.completed.slice(0, -1), next];
    return true;
  }
  if (!rule.after.includes(last ?? "none")) return false;
  state.completed = [...state.completed, next];
  return true;
}

/** The first factor is proven but the sign-in still waits for a second one. */
export const awaitsSecondFactor = (state: FlowState): boolean => state.secondFactor !== undefined;

/** The auth step (sign-in or sign-up) is done and the person has not failed or finished. */
export function authenticated(state: FlowState): boolean {
  const [first] = state.completed;
  return (first === "signin" || first === "signup") && !state.completed.includes("finished");
}
