import type { FastifyRequest } from "fastify";
import type { SecondFactorMethod } from "../../common/api/second-factor.ts";
import { recordActivity } from "../activity/activity.ts";
import {
  newRecoveryCodes,
  recoveryCodesOf,
  recoveryCodesProvider,
  useRecoveryCode,
} from "../accounts/recovery-codes.ts";
import { amrOf, withSecondFactor } from "../accounts/second-factors.ts";
import {
  openTotpSetUp,
  startTotpSetUp,
  stepOfCode,
  totpCredential,
  totpOfAccount,
  totpProvider,
  verifyTotp,
} from "../accounts/totp.ts";
import { HttpError } from "../http/errors.ts";
import { credentialsOf } from "../store/accounts.ts";
import type { Database } from "../store/database.ts";
import { guessedWrong, hasFailed, rememberBrowser, reserveGuess, type Guess } from "./auth-step.ts";
import type { FlowDeps } from "./deps.ts";
import { FlowStepError, type StepRequest } from "./flows.ts";
import { requireSession } from "../access/session.ts";

// The second factor after the first (issue: second factors): an authenticator app's code, a recovery
// code, or setting up an authenticator app when the account has no second factor yet. A passkey as
// the second factor goes through the passkey steps (passkey.ts). Each guess is reserved in the store
// before it is compared, on the flow's count and on the account's ceiling.

/**
 * The flow waits for a second factor this method can give (or, with `setUp`, for one of this kind to
 * be set up), in the browser that proved the first factor; the flow's account.
 */
export async function requireSecondFactor(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  method: SecondFactorMethod,
  { setUp = false } = {},
): Promise<string> {
  const { secondFactor } = step.flow.state;
  const waits = setUp
    ? (secondFactor?.setUp as readonly string[] | undefined)?.includes(method)
    : secondFactor?.methods.includes(method);
  if (!waits) throw new HttpError(400, "badRequest", "this flow does not wait for this second factor");
  return requireSession(deps, request, step.flow);
}

/** Reserves a guess at the account's second factor; undefined when the flow used up its guesses. */
export const reserveSecondFactorGuess = (deps: FlowDeps, step: StepRequest, accountId: string) =>
  reserveGuess(deps, step, "secondFactor", accountId);

/** A wrong second factor: the flow fails if it was its last guess, else the person may try again. */
export function refuseSecondFactor(
  step: StepRequest,
  guess: Guess,
  error: "invalidCode" | "invalidRecoveryCode" | "passkeyFailed",
): void {
  guessedWrong(step, guess);
  if (hasFailed(step.flow)) return;
  throw new FlowStepError(step.flow, error);
}

/**
 * The second factor is proven: what it proved joins the first factor's methods, the sign-in's time is
 * now (of its last factor), and the method is listed with the sign-in (its activity entry names it).
 * A browser signed in already (single sign-on) proved something anew: the engine's session is renewed.
 */
export function secondFactorProven(
  deps: FlowDeps,
  step: StepRequest,
  method: SecondFactorMethod,
  proved: readonly string[],
): void {
  const { state } = step.flow;
  state.amr = withSecondFactor(state.amr ?? [], proved);
  state.authTime = Math.floor(Date.now() / 1000);
  state.providers = [...new Set([...state.providers, method])];
  delete state.secondFactor;
  delete state.singleSignOn;
  if (state.accountId) rememberBrowser(deps, step, state.accountId);
}

export async function totpComplete(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  code: string,
): Promise<void> {
  const accountId = await requireSecondFactor(deps, request, step, "totp");
  const guess = await reserveSecondFactorGuess(deps, step, accountId);
  if (!guess) return;
  const right = await guess.compare(() => verifyTotp(deps.db, deps.secrets.sealer, accountId, code));
  if (!right) return refuseSecondFactor(step, guess, "invalidCode");
  await guess.forgive();
  secondFactorProven(deps, step, "totp", amrOf("totp"));
}

export async function recoveryCodeComplete(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  code: string,
): Promise<void> {
  const accountId = await requireSecondFactor(deps, request, step, "recoveryCode");
  const guess = await reserveSecondFactorGuess(deps, step, accountId);
  if (!guess) return;
  const hash = deps.secrets.recoveryCodes;
  const right = await guess.compare(() => useRecoveryCode(deps.db, hash, accountId, code));
  if (!right) return refuseSecondFactor(step, guess, "invalidRecoveryCode");
  await guess.forgive();
  secondFactorProven(deps, step, "recoveryCode", amrOf("recoveryCode"));
}

/** What an authenticator app lists the account under: its username or e-mail address. */
export async function accountLabel(db: Database, accountId: string, title: string): Promise<string> {
  const credentials = await credentialsOf(db, accountId);
  const named =
    credentials.find(({ provider }) => provider === "username") ??
    credentials.find(({ provider }) => provider === "email");
  return named?.displayName ?? title;
}

/** A new authenticator app for the account, its secret sealed to this flow until a first code confirms it. */
export async function totpSetUpStart(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
): Promise<void> {
  const accountId = await requireSecondFactor(deps, request, step, "totp", { setUp: true });
  const label = await accountLabel(deps.db, accountId, deps.title);
  step.answer.totpSetUp = await startTotpSetUp(deps.secrets.sealer, step.flow.id, { issuer: "Vrata", label });
}

/**
 * The first second factor of an account comes with its recovery codes, shown once in the step's
 * answer; the set-up is recorded in the account's activity.
 */
export async function secondFactorAdded(
  deps: FlowDeps,
  step: StepRequest,
  accountId: string,
  added: { id: string; provider: string; name: string },
): Promise<void> {
  const { effects } = step;
  if (!(await recoveryCodesOf(deps.db, accountId))) {
    const recovery = newRecoveryCodes(deps.secrets.recoveryCodes, accountId);
    effects.write((db) => recovery.store(db, Date.now()));
    step.answer.recoveryCodes = recovery.codes;
  }
  effects.write((db) =>
    recordActivity(db, accountId, {
      type: "credentialAdd",
      providers: [added.provider],
      credential: { id: added.id, name: added.name },
    }),
  );
  if (step.answer.recoveryCodes) {
    effects.write((db) =>
      recordActivity(db, accountId, { type: "credentialAdd", providers: [recoveryCodesProvider] }),
    );
  }
}

export async function totpSetUpComplete(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  { setUpToken, code }: { setUpToken: string; code: string },
): Promise<void> {
  const { flow } = step;
  const accountId = await requireSecondFactor(deps, request, step, "totp", { setUp: true });
  const seed = openTotpSetUp(deps.secrets.sealer, flow.id, setUpToken);
  if (!seed) throw new HttpError(400, "badRequest", "start setting up the authenticator app again");
  // Set up meanwhile (on the account page, or by another flow at the same moment): one per account.
  if (await totpOfAccount(deps.db, accountId))
    throw new HttpError(409, "totpExists", "the account has an authenticator app already; sign in again");
  const guess = await reserveSecondFactorGuess(deps, step, accountId);
  if (!guess) return;
  const timeStep = await stepOfCode(seed, code);
  if (timeStep === undefined) return refuseSecondFactor(step, guess, "invalidCode");
  await guess.forgive();
  const credential = totpCredential(deps.secrets.sealer, accountId, seed, timeStep);
  step.effects.write((db) => credential.store(db, Date.now()));
  await secondFactorAdded(deps, step, accountId, { id: credential.id, provider: totpProvider, name: "" });
  secondFactorProven(deps, step, "totp", amrOf("totp"));
}
