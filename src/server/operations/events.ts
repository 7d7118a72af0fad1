import type { FastifyBaseLogger } from "fastify";
import type { GuessKind } from "../flow/throttle.ts";

// What operators follow in the log (README "Log"): one line per event, its name in `event`, what it is
// about by IDs the instance's operator may see. A line never holds a secret, code, token or
// password, nor an e-mail address or username: the log is often shipped elsewhere, and an ID finds
// the rest in the store when it is needed.

interface FlowFields {
  flowId: string;
  organizationId: string;
  clientId: string;
}

/** Each event's fields. */
export interface OperatorEvents {
  /** An auth step signed in to an existing account; `method` lists the methods used (`password+code`). */
  signIn: FlowFields & { accountId: string; method: string };
  /** An auth step created an account. */
  signUp: FlowFields & { accountId: string; method: string };
  /** The flow failed: its guesses were used up, or the third-party provider refused or failed. */
  signInFailed: FlowFields & { method: string; reason: "guesses" | "providerDenied" | "providerFailed" };
  /** A password, code or passkey did not prove who signs in (the account, when one was guessed at). */
  guessFailed: FlowFields & { kind: GuessKind; accountId?: string | undefined };
  /** A sign-in code was sent by e-mail: to sign in to an account, or to prove an address to sign up with. */
  codeSent: FlowFields & { purpose: "signin" | "signup"; accountId?: string | undefined };
  /** The token endpoint answered with tokens; `subject` is the tokens' `sub` when they are about a person. */
  tokenIssued: { clientId: string; grant: string; subject?: string | undefined };
  /** An organization's admin blocked one of its identities (`scope` says whether its accounts too). */
  identityBlocked: { organizationId: string; identityId: string; scope: string; byAccountId: string };
  /** An organization's admin lifted a block. */
  identityUnblocked: { organizationId: string; identityId: string; byAccountId: string };
  /** The signing keys changed: a rotation published new ones, they began to sign, or old ones went. */
  signingKeysChanged: { signing: (string | undefined)[]; verifyOnly: (string | undefined)[] };
}

export type OperatorEvent = keyof OperatorEvents;

const messages: Record<OperatorEvent, string> = {
  signIn: "signed in",
  signUp: "signed up",
  signInFailed: "sign-in failed",
  guessFailed: "wrong password, code or passkey",
  codeSent: "sign-in code sent",
  tokenIssued: "token issued",
  identityBlocked: "identity blocked",
  identityUnblocked: "identity unblocked",
  signingKeysChanged: "signing keys changed",
};

/** Logs one event, at info. */
export function logEvent<E extends OperatorEvent>(
  log: FastifyBaseLogger,
  event: E,
  fields: OperatorEvents[E],
): void {
  const line: Record<string, unknown> = { event, ...fields };
  log.info(line, messages[event]);
}
