import { maxFlowAttempts } from "../../common/limits.ts";
import type { IdentityFields } from "../../common/api/identity.ts";
import { createAccount, type NewCredentials } from "../accounts/accounts.ts";
import { createIdentity } from "../identities/identities.ts";
import { HttpError } from "../http/errors.ts";
import type { FlowDeps } from "./deps.ts";
import { FlowStepError, type Flow, type StepRequest } from "./flows.ts";
import { isKnownDevice, rememberDevice } from "./known-device.ts";
import { newSession } from "../access/session.ts";
import { addCompleted } from "./state.ts";
import { amrOf } from "../accounts/second-factors.ts";
import { secondFactorAfter } from "./second-factor-policy.ts";
import { holdIfDeletionPending } from "./deletion-pending.ts";
import { logEvent } from "../operations/events.ts";
import { accountStanding, type AccountStanding } from "../store/accounts.ts";
import type { Bucket } from "../store/throttle.ts";
import {
  flowGuessBucket,
  forgiveGuess,
  guessBuckets,
  isRefusal,
  limitStore,
  releaseAll,
  reserveAll,
  type GuessKind,
  type GuessSubject,
  type Reservation,
} from "./throttle.ts";

/** Auth steps (password, code, passkey) only run before the flow has an outcome (reference §4.2). */
export function requireNoAuthStep(flow: Flow): void {
  if (flow.state.completed.length > 0) {
    throw new HttpError(400, "badRequest", "this flow has already completed its sign-in or sign-up");
  }
}

/** A new account to create with the step: its ID is chosen now, its rows are written with the flow. */
export interface NewAccount {
  id: string;
  credentials: NewCredentials;
  identityFields: IdentityFields;
}

/** The methods a first factor proved: each method of the step's (a password and a code, say). */
export const amrOfProviders = (providers: readonly string[]) => [
  ...new Set(providers.flatMap((provider) => amrOf(provider))),
];

/**
 * The person proved a credential: the flow records the outcome, the browser gets the flow's session
 * cookie, and a new account is created with a first identity made from what it signed up with. All of
 * it is stored with the flow's state, or none of it (StepEffects). When the account, its
 * organization's policy or the app asks for more, the flow then waits for a second factor; the
 * browser becomes a known one of the account only once that is proven.
 */
export async function completeAuthStep(
  deps: FlowDeps,
  step: StepRequest,
  /** The account signed in to, with its standing when the step read it already; or a new one. */
  outcome: { accountId: string; standing?: AccountStanding | undefined } | { newAccount: NewAccount },
  amr: string[] = amrOfProviders(step.flow.state.providers),
): Promise<void> {
  const { flow, effects } = step;
  const { state } = flow;
  const now = Date.now();
  const accountId = "accountId" in outcome ? outcome.accountId : outcome.newAccount.id;
  const signedUp = "newAccount" in outcome;
  // A new account is not stored yet: it has none of the credentials a second factor would be.
  const standing =
    "newAccount" in outcome ? undefined : (outcome.standing ?? (await accountStanding(deps.db, accountId)));
  const secondFactor = await secondFactorAfter(deps, flow, amr, standing?.credentials ?? []);
  addCompleted(state, signedUp ? "signup" : "signin");
  state.accountId = accountId;
  state.signedUp = signedUp;
  state.authTime = Math.floor(now / 1000);
  state.amr = amr;
  if (secondFactor) state.secondFactor = secondFactor;
  holdIfDeletionPending(state, standing?.deletionDueAt);
  delete state.code;
  delete state.passkey;
  delete state.upstream;
  delete state.emailOrUsername;
  if ("newAccount" in outcome) {
    const { credentials, identityFields } = outcome.newAccount;
    effects.write((db) => createAccount(db, accountId, credentials));
    effects.write((db) => createIdentity(db, accountId, identityFields));
  }
  const session = newSession(deps, flow.id, accountId, now);
  state.sessionId = session.id;
  effects.write(session.store);
  effects.onceStored(session.setCookie);
  if (!secondFactor) rememberBrowser(deps, step, accountId);
}

/** The browser proved every factor asked of the account: it is a known one of the account from now. */
export function rememberBrowser(deps: FlowDeps, step: StepRequest, accountId: string): void {
  step.effects.onceStored((reply) =>
    rememberDevice(deps.secrets.knownDevices, reply, step.device, accountId),
  );
}

/** The nonce of the browser's device cookie when the browser signed in to the account before. */
export function knownDevice(deps: FlowDeps, step: StepRequest, accountId: string): string | undefined {
  return isKnownDevice(deps.secrets.knownDevices, step.device, accountId) ? step.device.nonce : undefined;
}

/**
 * The flow used up its guesses: it fails, and codes sent and passkey challenges in it are forgotten.
 * A sign-in that waited for a second factor fails as a whole: its first factor signs nobody in.
 */
export function failFlow(flow: Flow): void {
  if (flow.state.secondFactor) {
    flow.state.completed = [];
    delete flow.state.secondFactor;
  }
  addCompleted(flow.state, "failed");
  delete flow.state.code;
  delete flow.state.passkey;
  delete flow.state.upstream;
}

/** Reserves the limits' units for work about to be done, or fails the step with `error`. */
export async function reserveOrRefuse(
  deps: FlowDeps,
  flow: Flow,
  buckets: Bucket[],
  error: "tooManyAttempts" | "tooManyCodes",
): Promise<Reservation> {
  const reserved = await reserveAll(limitStore(deps), buckets);
  if (isRefusal(reserved)) throw new FlowStepError(flow, error, reserved.retryAfterMs);
  return reserved;
}

/**
 * Reserves a guess of a password or code before it is compared. Returns undefined when the flow has
 * used up its guesses (it has then failed); a reached account or address limit is a step error.
 */
export async function reserveGuess(
  deps: FlowDeps,
  step: StepRequest,
  kind: GuessKind,
  accountId: string | undefined,
): Promise<Guess | undefined> {
  const { flow } = step;
  const subject: GuessSubject = {
    flowId: flow.id,
    address: step.address,
    accountId,
    knownDevice: accountId === undefined ? undefined : knownDevice(deps, step, accountId),
  };
  const reserved = await reserveAll(limitStore(deps), guessBuckets(kind, subject));
  if (isRefusal(reserved)) {
    if (reserved.bucket.key !== flowGuessBucket(flow.id).key) {
      throw new FlowStepError(flow, "tooManyAttempts", reserved.retryAfterMs);
    }
    failFlow(flow);
    return undefined;
  }
  return {
    kind,
    accountId,
    isLastOfFlow: (reserved.levels[0] ?? 0) >= maxFlowAttempts,
    forgive: () => forgiveGuess(limitStore(deps), reserved, subject),
    compare: async (check) => {
      try {
        return await check();
      } catch (error) {
        // Not compared after all (the server was too busy to hash, say): it costs no guess.
        await releaseAll(limitStore(deps), reserved);
        throw error;
      }
    },
  };
}

export interface Guess {
  kind: GuessKind;
  /** The account guessed at, when the guess names one. */
  accountId: string | undefined;
  /** This guess was the flow's last: if it is wrong, the flow fails. */
  isLastOfFlow: boolean;
  /** The guess was right: it counts against no ceiling. */
  forgive: () => Promise<void>;
  /** Runs the comparison the guess was reserved for; one that fails to run gives its units back. */
  compare: (check: () => Promise<boolean> | boolean) => Promise<boolean>;
}

/** A wrong guess is logged; the flow fails if it was its last. */
export function guessedWrong(step: StepRequest, guess: Guess): void {
  const { flow } = step;
  logEvent(step.log, "guessFailed", {
    flowId: flow.id,
    organizationId: flow.organizationId,
    clientId: flow.clientId,
    kind: guess.kind,
    ...(guess.accountId === undefined ? {} : { accountId: guess.accountId }),
  });
  if (guess.isLastOfFlow) failFlow(flow);
}

export function hasFailed(flow: Flow): boolean {
  return flow.state.completed.includes("failed");
}

/** Identity fields for the first identity of an account that signed up with an e-mail or a username. */
export function identityFromIdentifier(identifier: {
  kind: "email" | "username";
  display: string;
}): IdentityFields {
  if (identifier.kind === "username") return { username: identifier.display };
  const localPart = identifier.display.split("@")[0] ?? "";
  return { email: identifier.display, ...(/^[^\s@]{3,}$/.test(localPart) ? { username: localPart } : {}) };
}
