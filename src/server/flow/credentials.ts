import type { FastifyReply } from "fastify";
import type { Locale } from "../../common/limits.ts";
import { checkPassword, createAccount, emailsOf, findAccountByIdentifier } from "../accounts/accounts.ts";
import { normalizeIdentifier, normalizePassword, type Identifier } from "../accounts/normalize.ts";
import { hashPassword } from "../accounts/passwords.ts";
import { HttpError } from "../http/errors.ts";
import { applicationOf } from "../organizations/applications.ts";
import { codeMatches, mayResend, sendCode } from "./code.ts";
import type { FlowDeps } from "./deps.ts";
import {
  completeAuthStep,
  countFailedAttempt,
  hasFailed,
  identityFromIdentifier,
  requireNoAuthStep,
} from "./auth-step.ts";
import { FlowStepError, type Flow } from "./flows.ts";
import type { CodeTarget } from "./state.ts";
import { isThrottled, type AttemptSubject } from "./throttle.ts";

// The password and e-mail code methods (reference §4.7.1 and §4.7.2). Sign-in and sign-up are one
// path: who has no account gets one once they proved what they typed.

export interface StepRequest {
  flow: Flow;
  reply: FastifyReply;
  address: string;
  locale: Locale;
}

function identifierOrError(flow: Flow, typed: string): Identifier {
  const identifier = normalizeIdentifier(typed);
  if (identifier === "invalid") throw new FlowStepError(flow, "invalidEmailOrUsername");
  if (identifier === "short") throw new FlowStepError(flow, "shortEmailOrUsername");
  return identifier;
}

async function guardThrottle(deps: FlowDeps, flow: Flow, subject: AttemptSubject): Promise<void> {
  if (await isThrottled(deps.db, subject)) throw new FlowStepError(flow, "tooManyAttempts");
}

/** The identifier typed in this flow; starting over with another one forgets codes sent for the old one. */
function setIdentifier(flow: Flow, identifier: Identifier): void {
  if (flow.state.code && flow.state.code.identifierKey !== identifier.key) delete flow.state.code;
  flow.state.emailOrUsername = identifier.display;
}

async function sendCodeTo(
  deps: FlowDeps,
  step: StepRequest,
  identifier: Identifier,
  target: CodeTarget,
  recipients: string[],
): Promise<void> {
  const { flow } = step;
  if (!mayResend(flow, identifier.key, Date.now())) return;
  const application = await applicationOf(deps.db, flow.organizationId, flow.applicationId);
  await sendCode(deps, flow, {
    identifierKey: identifier.key,
    target,
    recipients,
    locale: step.locale,
    appName: application.name,
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
  const { password } = normalized;
  const identifier = identifierOrError(flow, flow.state.emailOrUsername);
  const accountId = await findAccountByIdentifier(deps.db, identifier);
  const subject: AttemptSubject = { address: step.address, ...(accountId ? { accountId } : {}) };
  await guardThrottle(deps, flow, subject);

  if (accountId) {
    if (await checkPassword(deps.db, accountId, password)) {
      await completeAuthStep(deps, flow, step.reply, { accountId, signedUp: false });
      return;
    }
    await countFailedAttempt(deps, flow, subject);
    if (hasFailed(flow)) return;
    // A wrong password is recovered from with a code to the account's e-mail (reference §4.7.1).
    const recipients =
      identifier.kind === "email" ? [identifier.display] : await emailsOf(deps.db, accountId);
    if (recipients.length === 0) throw new FlowStepError(flow, "wrongPassword");
    await sendCodeTo(deps, step, identifier, { kind: "signin", accountId }, recipients);
    flow.state.providers = ["password", "code"];
    return;
  }

  const passwordHash = await hashPassword(password);
  if (identifier.kind === "username") {
    const newAccount = await createAccount(deps.db, { username: identifier, passwordHash });
    await completeAuthStep(deps, flow, step.reply, {
      accountId: newAccount,
      signedUp: true,
      identityFields: identityFromIdentifier(identifier),
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
}

export async function codeStart(deps: FlowDeps, step: StepRequest, emailOrUsername: string): Promise<void> {
  const { flow } = step;
  requireNoAuthStep(flow);
  const identifier = identifierOrError(flow, emailOrUsername);
  const sameIdentifier = flow.state.code?.identifierKey === identifier.key;
  const usedPassword =
    flow.state.providers.includes("password") && flow.state.emailOrUsername === identifier.display;
  await guardThrottle(deps, flow, { address: step.address });
  const accountId = await findAccountByIdentifier(deps.db, identifier);

  let target: CodeTarget;
  let recipients: string[];
  if (accountId) {
    recipients = identifier.kind === "email" ? [identifier.display] : await emailsOf(deps.db, accountId);
    if (recipients.length === 0) throw new FlowStepError(flow, "noEmails");
    target = { kind: "signin", accountId };
  } else if (identifier.kind === "username") {
    throw new FlowStepError(flow, "noAccount");
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

export async function codeComplete(deps: FlowDeps, step: StepRequest, typedCode: string): Promise<void> {
  const { flow } = step;
  requireNoAuthStep(flow);
  const code = flow.state.code;
  if (!code) throw new HttpError(400, "badRequest", "no code was sent in this flow");
  const subject: AttemptSubject = {
    address: step.address,
    ...(code.target.kind === "signin" ? { accountId: code.target.accountId } : {}),
  };
  await guardThrottle(deps, flow, subject);
  if (!codeMatches(deps, flow, typedCode)) {
    await countFailedAttempt(deps, flow, subject);
    if (hasFailed(flow)) return;
    throw new FlowStepError(flow, "invalidCode");
  }

  const { target } = code;
  if (target.kind === "signin") {
    await completeAuthStep(deps, flow, step.reply, { accountId: target.accountId, signedUp: false });
    return;
  }
  const email = { kind: "email" as const, display: target.emailDisplay, key: target.email };
  // Someone may have signed up with this address since the code was sent: then this signs in to it.
  const existing = await findAccountByIdentifier(deps.db, email);
  if (existing) {
    await completeAuthStep(deps, flow, step.reply, { accountId: existing, signedUp: false });
    return;
  }
  const accountId = await createAccount(deps.db, {
    email,
    ...(target.passwordHash ? { passwordHash: target.passwordHash } : {}),
  });
  await completeAuthStep(deps, flow, step.reply, {
    accountId,
    signedUp: true,
    identityFields: identityFromIdentifier(email),
  });
}
