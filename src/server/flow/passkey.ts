import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";
import { passkeyTimeoutMs, type Locale } from "../../common/limits.ts";
import {
  findPasskey,
  passkeyRegistrationOptions,
  passkeyRelyingParty,
  recordPasskeyUse,
  verifiedNewPasskey,
  type NewPasskey,
  type Passkey,
} from "../accounts/passkeys.ts";
import { webauthn } from "../accounts/webauthn.ts";
import { defaultPasskeyName } from "../accounts/authenticators.ts";
import { passkeyUserName, signUpIdentity } from "../accounts/sign-up-identity.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import {
  completeAuthStep,
  guessedWrong,
  hasFailed,
  requireNoAuthStep,
  reserveGuess,
  reserveOrRefuse,
  type Guess,
} from "./auth-step.ts";
import type { FlowDeps } from "./deps.ts";
import { FlowStepError, saveFlow, type Flow, type StepRequest } from "./flows.ts";
import type { PasskeyState } from "./state.ts";
import { signUpBucket } from "./throttle.ts";
import { amrOf } from "../accounts/second-factors.ts";
import {
  passkeySecondFactor,
  passkeySetUpComplete,
  passkeySetUpStart,
  secondFactorPasskeys,
} from "./passkey-second-factor.ts";

// Signing in and up with a passkey (reference §4.7.3-§4.7.4), with SimpleWebAuthn. The relying party
// is the issuer (see accounts/passkeys.ts).

export const relyingParty = (deps: FlowDeps) => passkeyRelyingParty(deps.issuer);

/**
 * The challenge of the ceremony under way, forgotten in the store before the answer is verified: a
 * challenge serves one answer, even one that fails. Answers sent at once find it gone (400) or lose
 * the race to forget it (409), before any verification.
 */
export async function takeChallenge<C extends PasskeyState["ceremony"]>(
  deps: FlowDeps,
  flow: Flow,
  ceremony: C,
): Promise<Extract<PasskeyState, { ceremony: C }>> {
  const pending = flow.state.passkey;
  if (pending?.ceremony !== ceremony) {
    throw new HttpError(400, "badRequest", "start the passkey step first; each start allows one answer");
  }
  delete flow.state.passkey;
  await saveFlow(deps.db, flow);
  return pending as Extract<PasskeyState, { ceremony: C }>;
}

/** The answer could not be verified: it counts as a failed attempt of the flow. */
function refuse(step: StepRequest, guess: Guess): void {
  guessedWrong(step, guess);
  if (hasFailed(step.flow)) return;
  throw new FlowStepError(step.flow, "passkeyFailed");
}

export async function passkeyGetStart(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
): Promise<void> {
  const { flow } = step;
  // After a first factor, the account's own passkeys; before, discoverable credentials: the browser
  // offers whatever passkeys it has for this site.
  const allowCredentials = flow.state.secondFactor
    ? await secondFactorPasskeys(deps, request, step)
    : (requireNoAuthStep(flow), []);
  const { generateAuthenticationOptions } = await webauthn();
  const getOptions = await generateAuthenticationOptions({
    rpID: relyingParty(deps).id,
    allowCredentials,
    userVerification: "preferred",
    timeout: passkeyTimeoutMs,
  });
  // The flow's method is unchanged until the answer signs in: the start step asks for the passkeys
  // autofill offers on its own, while the person may well go on with a password.
  flow.state.passkey = { ceremony: "get", challenge: getOptions.challenge };
  step.answer.passkey = { getOptions };
}

/** Verifies the signature with the stored key; undefined when anything about the answer is wrong. */
export async function verifyAssertion(
  deps: FlowDeps,
  step: StepRequest,
  passkey: Passkey,
  response: AuthenticationResponseJSON,
  challenge: string,
) {
  const { origin, id } = relyingParty(deps);
  const { userHandle } = response.response;
  if (userHandle !== undefined && userHandle !== passkey.data.userHandle) return undefined;
  const { verifyAuthenticationResponse } = await webauthn();
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: id,
      // The counter is checked below, once the signature has shown that the authenticator sent it.
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.data.publicKey, "base64url")),
        counter: 0,
        transports: passkey.data.transports,
      },
      requireUserVerification: false,
    });
    return verified ? authenticationInfo : undefined;
  } catch (error) {
    step.log.info({ err: error }, "passkey sign-in refused");
    return undefined;
  }
}

/** An authenticator that counts signatures reported a count it had reported before: a copy of it may exist. */
export const counterWentBack = (stored: number, reported: number) => stored > 0 && reported <= stored;

/**
 * Checks an answer against the passkey it names and its signature counter. When it holds, the passkey's
 * use is written with the step, and the methods it proves (`amr`) are returned; otherwise undefined.
 */
export async function provePasskey(
  deps: FlowDeps,
  step: StepRequest,
  passkey: NonNullable<Awaited<ReturnType<typeof findPasskey>>>,
  response: AuthenticationResponseJSON,
  challenge: string,
): Promise<string[] | undefined> {
  const verified = await verifyAssertion(deps, step, passkey, response, challenge);
  if (!verified) return undefined;
  if (counterWentBack(passkey.data.counter, verified.newCounter)) {
    step.log.warn(
      { accountId: passkey.accountId, credential: passkey.id },
      `passkey signature counter ${verified.newCounter} is not above ${passkey.data.counter}: the authenticator may be cloned`,
    );
    return undefined;
  }
  const use = { counter: verified.newCounter, backedUp: verified.credentialBackedUp, at: Date.now() };
  step.effects.write((db) => recordPasskeyUse(db, passkey, use));
  return amrOf("passkey", { synced: passkey.data.multiDevice, userVerified: verified.userVerified });
}

export async function passkeyGetComplete(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  response: AuthenticationResponseJSON,
): Promise<void> {
  const { flow } = step;
  if (flow.state.secondFactor) return passkeySecondFactor(deps, request, step, response);
  requireNoAuthStep(flow);
  const { challenge } = await takeChallenge(deps, flow, "get");
  const passkey = await findPasskey(deps.db, response.id);
  const guess = await reserveGuess(deps, step, "passkey", passkey?.accountId);
  if (!guess) return;
  if (!passkey) {
    guessedWrong(step, guess);
    if (hasFailed(flow)) return;
    // The browser offered a passkey this server does not know (removed, say): the page tells the
    // browser to stop offering it, and offers to sign up.
    step.answer.signalUnknown = { rpId: relyingParty(deps).id, credentialId: response.id };
    throw new FlowStepError(flow, "noAccount");
  }
  const proved = await provePasskey(deps, step, passkey, response, challenge);
  if (!proved) return refuse(step, guess);
  await guess.forgive();
  flow.state.providers = ["passkey"];
  await completeAuthStep(deps, step, { accountId: passkey.accountId }, proved);
}

/**
 * The options of a new account's passkey, once the person named its first identity: the typed name
 * is checked first, and the authenticator lists the passkey under it.
 */
export async function passkeyCreateStart(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  typed: { name: string; email?: string | undefined; locale?: Locale | undefined },
): Promise<void> {
  const { flow } = step;
  if (flow.state.secondFactor) return passkeySetUpStart(deps, request, step, typed.locale);
  requireNoAuthStep(flow);
  const identity = signUpIdentity(typed);
  if (typeof identity === "string") throw new FlowStepError(flow, identity);
  // Each sign-up is a new account, with a new random user handle the authenticator files it under.
  const createOptions = await passkeyRegistrationOptions({
    issuer: deps.issuer,
    title: deps.title,
    userHandle: randomBytes(16),
    userName: passkeyUserName(identity),
    ...(identity.fullName ? { userDisplayName: identity.fullName } : {}),
  });
  flow.state.passkey = {
    ceremony: "create",
    challenge: createOptions.challenge,
    userHandle: createOptions.user.id,
    identity,
    locale: typed.locale ?? step.locale,
  };
  step.answer.passkey = { createOptions };
}

/** The new passkey as it is to be stored; undefined when anything about the answer is wrong. */
export async function verifyRegistration(
  deps: FlowDeps,
  step: StepRequest,
  response: RegistrationResponseJSON,
  pending: Extract<PasskeyState, { ceremony: "create" }>,
): Promise<NewPasskey | undefined> {
  const { challenge, userHandle, locale } = pending;
  const passkey = await verifiedNewPasskey(
    deps.issuer,
    response,
    { challenge, userHandle, name: "" },
    step.log,
  );
  if (passkey) passkey.name = defaultPasskeyName(passkey.data.aaguid, locale ?? step.locale, new Date());
  return passkey;
}

export async function passkeyCreateComplete(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  response: RegistrationResponseJSON,
): Promise<void> {
  const { flow } = step;
  if (flow.state.secondFactor) return passkeySetUpComplete(deps, request, step, response);
  requireNoAuthStep(flow);
  const pending = await takeChallenge(deps, flow, "create");
  // Started by a server that did not ask for a name yet (during an upgrade): the page starts again.
  const { identity } = pending;
  if (!identity)
    throw new HttpError(400, "badRequest", "start the passkey sign-up again, naming the identity");
  const guess = await reserveGuess(deps, step, "passkey", undefined);
  if (!guess) return;
  const passkey = await verifyRegistration(deps, step, response, pending);
  if (!passkey) return refuse(step, guess);
  // A registration carries no signature with attestation "none", so it proves nothing about who holds
  // a credential ID this server knows already; that passkey signs in through passkey sign-in only.
  if (await findPasskey(deps.db, passkey.credentialId)) {
    step.log.warn({ credential: passkey.credentialId }, "passkey sign-up with a known credential ID refused");
    return refuse(step, guess);
  }
  await guess.forgive();
  await reserveOrRefuse(deps, flow, [signUpBucket(step.address)], "tooManyAttempts");
  flow.state.providers = ["passkey"];
  // Registrations require user verification (accounts/passkeys.ts).
  const amr = amrOf("passkey", { synced: passkey.data.multiDevice, userVerified: true });
  await completeAuthStep(
    deps,
    step,
    {
      newAccount: {
        id: newId(),
        credentials: { passkey },
        identityFields: identity,
      },
    },
    amr,
  );
}
