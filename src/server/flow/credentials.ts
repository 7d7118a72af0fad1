import { checkPassword, emailsOf, findAccountByIdentifier } from "../accounts/accounts.ts";
import { normalizeIdentifier, normalizePassword, type Identifier } from "../accounts/normalize.ts";
import { hashPassword } from "../accounts/passwords.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import { MailUnavailableError } from "../mail/mailer.ts";
import { logEvent } from "../operations/events.ts";
import { applicationOf } from "../organizations/applications.ts";
import { accountStandingByCredential, type AccountStanding } from "../store/accounts.ts";
import {
  completeAuthStep,
  guessedWrong,
  hasFailed,
  identityFromIdentifier,
  knownDevice,
  requireNoAuthStep,
  reserveGuess,
  reserveOrRefuse,
} from "./auth-step.ts";
import { codeMatches, mayResend, sendCode } from "./code.ts";
import type { FlowDeps } from "./deps.ts";
import { FlowStepError, type Flow, type StepRequest } from "./flows.ts";
import type { CodeTarget } from "./state.ts";
import { codeSendBuckets, limitStore, releaseAll, signUpBucket } from "./throttle.ts";

// The password and e-mail code methods (reference §4.7.1 and §4.7.2). Sign-in and sign-up are one
// path: who has no account gets one once they proved what they typed.

function identifierOrError(flow: Flow, typed: string): Identifier {
  const identifier = normalizeIdentifier(typed);
  if (identifier === "invalid") throw new FlowStepError(flow, "invalidEmailOrUsername");
  if (identifier === "short") throw new FlowStepError(flow, "shortEmailOrUsername");
  return identifier;
}

/** The identifier typed in this flow; starting over with another one forgets codes sent for the old one. */
function setIdentifier(flow: Flow, identifier: Identifier): void {
  if (flow.state.code && flow.state.code.identifierKey !== identifier.key) delete flow.state.code;
  flow.state.emailOrUsername = identifier.display;
}

/** Sends a code, unless one went out moments ago; the limits on codes sent may refuse it. */
async function sendCodeTo(
  deps: FlowDeps,
  step: StepRequest,
  identifier: Identifier,
  target: CodeTarget,
  recipients: string[],
): Promise<void> {
  const { flow } = step;
  if (!mayResend(flow, identifier.key, Date.now())) return;
  const account =
    target.kind === "signin"
      ? { id: target.accountId, knownDevice: knownDevice(deps, step, target.accountId) }
      : undefined;
  const reservation = await reserveOrRefuse(
    deps,
    flow,
    codeSendBuckets(step.address, recipients, account),
    "tooManyCodes",
  );
  const application = await applicationOf(deps.db, flow.organizationId, flow.applicationId);
  try {
    await sendCode(deps, flow, {
      identifierKey: identifier.key,
      target,
      recipients,
      locale: step.locale,
      appName: application.name,
    });
  } catch (error) {
    if (!(error instanceof MailUnavailableError)) throw error;
    // A code that never left costs none of the limits on codes sent; the step's answer is an error, so
    // nothing it changed in the flow (no code, no resend cooldown) is stored.
    await releaseAll(limitStore(deps), reservation);
    throw new HttpError(503, "mailUnavailable", "the code could not be sent; try again in a moment");
  }
  logEvent(step.log, "codeSent", {
    flowId: flow.id,
    organizationId: flow.organizationId,
    clientId: flow.clientId,
    purpose: target.kind,
    ...(target.kind === "signin" ? { accountId: target.accountId } : {}),
  });
}

export function passwordStart(step: StepRequest, emailOrUsername: string): void {
  const { flow } = step;
  requireNoAuthStep(flow);
  setIdentifier(flow, identifierOrError(flow, emailOrUsername));
  flow.state.providers = ["password"];
}

export async function passwordComplete(
  deps: FlowDeps,
  step: StepRequest,
  typedPassword: string,
): Promise<void> {
  const { flow } = step;
  requireNoAuthStep(flow);
  if (!flow.state.emailOrUsername || !flow.state.providers.includes("password")) {
    throw new HttpError(400, "badRequest", "start the password step first");
  }
  const normalized = normalizePassword(typedPassword);
  if (normalized === "invalid") throw new FlowStepError(flow, "invalidPassword");
  if (normalized === "short") throw new FlowStepError(flow, "shortPassword");
  const identifier = identifierOrError(flow, flow.state.emailOrUsername);
  // The account with what its sign-in weighs (its password among it), read before the guess is
  // reserved but compared only after.
  const account = await accountStandingByCredential(deps.db, identifier.kind, identifier.key);
  await (account
    ? signInWithPassword(deps, step, identifier, account, normalized.password)
    : signUpWithPassword(deps, step, identifier, normalized.password));
}

async function signInWithPassword(
  deps: FlowDeps,
  step: StepRequest,
  identifier: Identifier,
  { accountId, standing }: { accountId: string; standing: AccountStanding },
  password: string,
): Promise<void> {
  const { flow } = step;
  const guess = await reserveGuess(deps, step, "password", accountId);
  if (!guess) return;
  if (await guess.compare(() => checkPassword(deps.db, standing.credentials, password))) {
    await guess.forgive();
    await completeAuthStep(deps, step, { accountId, standing });
    return;
  }
  guessedWrong(step, guess);
  if (hasFailed(flow)) return;
  // A wrong password is recovered from with a code to the account's e-mail (reference §4.7.1).
  const recipients = identifier.kind === "email" ? [identifier.display] : await emailsOf(deps.db, accountId);
  if (recipients.length === 0) throw new FlowStepError(flow, "wrongPassword");
  await sendCodeTo(deps, step, identifier, { kind: "signin", accountId }, recipients);
  flow.state.providers = ["password", "code"];
  // Said only for a username, which the password step has told apart already (a new one signs up at
  // once). For an e-mail address the answer stays that of a sign-up, which also goes on to a code.
  step.answer.codeAfterPassword = identifier.kind === "username" ? "wrong" : "undisclosed";
}

async function signUpWithPassword(
  deps: FlowDeps,
  step: StepRequest,
  identifier: Identifier,
  password: string,
): Promise<void> {
  const { flow } = step;
  await reserveOrRefuse(deps, flow, [signUpBucket(step.address)], "tooManyAttempts");
  const passwordHash = await hashPassword(password);
  if (identifier.kind === "username") {
    await completeAuthStep(deps, step, {
      newAccount: {
        id: newId(),
        credentials: { username: identifier, passwordHash },
        identityFields: identityFromIdentifier(identifier),
      },
    });
    return;
  }
  // A new e-mail address signs up only once a code sent to it proves it is theirs.
  const target: CodeTarget = {
    kind: "signup",
    email: identifier.key,
    emailDisplay: identifier.display,
    passwordHash,
  };
  if (flow.state.code?.identifierKey === identifier.key) flow.state.code.target = target;
  await sendCodeTo(deps, step, identifier, target, [identifier.display]);
  flow.state.providers = ["password", "code"];
  step.answer.codeAfterPassword = "undisclosed";
}

export async function codeStart(deps: FlowDeps, step: StepRequest, emailOrUsername: string): Promise<void> {
  const { flow } = step;
  requireNoAuthStep(flow);
  const identifier = identifierOrError(flow, emailOrUsername);
  const sameIdentifier = flow.state.code?.identifierKey === identifier.key;
  const usedPassword =
    flow.state.providers.includes("password") && flow.state.emailOrUsername === identifier.display;
  const accountId = await findAccountByIdentifier(deps.db, identifier);

  let target: CodeTarget;
  let recipients: string[];
  if (accountId) {
    recipients = identifier.kind === "email" ? [identifier.display] : await emailsOf(deps.db, accountId);
    if (recipients.length === 0) throw new FlowStepError(flow, "noEmails");
    target = { kind: "signin", accountId };
  } else if (identifier.kind === "username") {
    // Answered as for an account without an address: whether the username has an account stays unsaid.
    throw new FlowStepError(flow, "noEmails");
  } else {
    const pending =
      sameIdentifier && flow.state.code?.target.kind === "signup" ? flow.state.code.target : undefined;
    target = { ...pending, kind: "signup", email: identifier.key, emailDisplay: identifier.display };
    recipients = [identifier.display];
  }
  if (!mayResend(flow, identifier.key, Date.now())) throw new FlowStepError(flow, "codeRecentlySent");
  setIdentifier(flow, identifier);
  flow.state.providers = usedPassword ? ["password", "code"] : ["code"];
  await sendCodeTo(deps, step, identifier, target, recipients);
}

type SignUpTarget = Extract<CodeTarget, { kind: "signup" }>;

const signUpEmail = (target: SignUpTarget) => ({
  kind: "email" as const,
  display: target.emailDisplay,
  key: target.email,
});

export async function codeComplete(deps: FlowDeps, step: StepRequest, typedCode: string): Promise<void> {
  const { flow } = step;
  requireNoAuthStep(flow);
  const code = flow.state.code;
  if (!code) throw new HttpError(400, "badRequest", "no code was sent in this flow");
  const { target } = code;
  // A sign-up's address may have got an account since its code was sent: the code then signs in to
  // that account, and guesses at it count against that account's limits.
  const accountId =
    target.kind === "signin" ? target.accountId : await findAccountByIdentifier(deps.db, signUpEmail(target));
  const guess = await reserveGuess(deps, step, "code", accountId);
  if (!guess) return;
  if (!(await guess.compare(() => codeMatches(deps, flow, typedCode)))) {
    guessedWrong(step, guess);
    if (hasFailed(flow)) return;
    throw new FlowStepError(flow, "invalidCode");
  }
  await guess.forgive();
  if (accountId !== undefined) {
    // Only the code proved anything: a password typed before it was wrong or never checked.
    flow.state.providers = ["code"];
    await completeAuthStep(deps, step, { accountId });
  } else if (target.kind === "signup") await signUpWithCode(deps, step, target);
}

/** A new account for the address the code proved; with the password typed before, if one was. */
async function signUpWithCode(deps: FlowDeps, step: StepRequest, target: SignUpTarget): Promise<void> {
  // A sign-up with a password was counted when its password was hashed.
  if (!target.passwordHash) {
    await reserveOrRefuse(deps, step.flow, [signUpBucket(step.address)], "tooManyAttempts");
  }
  const email = signUpEmail(target);
  await completeAuthStep(deps, step, {
    newAccount: {
      id: newId(),
      credentials: { email, ...(target.passwordHash ? { passwordHash: target.passwordHash } : {}) },
      identityFields: identityFromIdentifier(email),
    },
  });
}
