import { randomBytes } from "node:crypto";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";
import type { FastifyRequest } from "fastify";
import type { Locale } from "../../common/limits.ts";
import {
  findPasskey,
  passkeyProvider,
  passkeyRegistrationOptions,
  passkeyRow,
  type Passkey,
  type PasskeyData,
} from "../accounts/passkeys.ts";
import { amrOf } from "../accounts/second-factors.ts";
import { newId } from "../ids.ts";
import { credentialsOf, insertCredential } from "../store/accounts.ts";
import type { FlowDeps } from "./deps.ts";
import type { StepRequest } from "./flows.ts";
import { provePasskey, takeChallenge, verifyRegistration } from "./passkey.ts";
import {
  accountLabel,
  refuseSecondFactor,
  requireSecondFactor,
  reserveSecondFactorGuess,
  secondFactorAdded,
  secondFactorProven,
} from "./second-factor.ts";

// A passkey as the second factor after a first one, or set up for the signed-in account when it must
// have one: the passkey steps of the flow run these while the flow waits for a second factor.

async function passkeysOf(deps: FlowDeps, accountId: string): Promise<Passkey[]> {
  const credentials = await credentialsOf(deps.db, accountId, passkeyProvider);
  return credentials.map((credential) => ({
    id: credential.id,
    accountId,
    credentialId: credential.providerId ?? "",
    name: credential.displayName,
    data: JSON.parse(credential.data) as PasskeyData,
  }));
}

/** The passkeys the browser may offer as the second factor: the flow's account's. */
export async function secondFactorPasskeys(deps: FlowDeps, request: FastifyRequest, step: StepRequest) {
  const accountId = await requireSecondFactor(deps, request, step, "passkey");
  return (await passkeysOf(deps, accountId)).map(({ credentialId, data }) => ({
    id: credentialId,
    transports: data.transports as AuthenticatorTransport[],
  }));
}

/** The answer signs the challenge with a passkey of the flow's account; any other counts as a wrong guess. */
export async function passkeySecondFactor(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  response: AuthenticationResponseJSON,
): Promise<void> {
  const { flow } = step;
  const accountId = await requireSecondFactor(deps, request, step, "passkey");
  const { challenge } = await takeChallenge(deps, flow, "get");
  const guess = await reserveSecondFactorGuess(deps, step, accountId);
  if (!guess) return;
  const passkey = await findPasskey(deps.db, response.id);
  if (passkey?.accountId !== accountId) return refuseSecondFactor(step, guess, "passkeyFailed");
  const proved = await provePasskey(deps, step, passkey, response, challenge);
  if (!proved) return refuseSecondFactor(step, guess, "passkeyFailed");
  await guess.forgive();
  secondFactorProven(deps, step, "passkey", proved);
}

/**
 * The options of a new passkey for the flow's account, which must set one up: filed under the
 * account's user handle, excluding the passkeys it has.
 */
export async function passkeySetUpStart(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  locale: Locale | undefined,
): Promise<void> {
  const { flow } = step;
  const accountId = await requireSecondFactor(deps, request, step, "passkey", { setUp: true });
  const passkeys = await passkeysOf(deps, accountId);
  const existing = passkeys.find(({ data }) => data.userHandle)?.data.userHandle;
  const createOptions = await passkeyRegistrationOptions({
    issuer: deps.issuer,
    title: deps.title,
    userHandle: existing ? Buffer.from(existing, "base64url") : randomBytes(16),
    userName: await accountLabel(deps.db, accountId, deps.title),
    exclude: passkeys,
  });
  flow.state.passkey = {
    ceremony: "create",
    challenge: createOptions.challenge,
    userHandle: createOptions.user.id,
    locale: locale ?? step.locale,
  };
  step.answer.passkey = { createOptions };
}

/** The new passkey is stored for the flow's account and proves the second factor. */
export async function passkeySetUpComplete(
  deps: FlowDeps,
  request: FastifyRequest,
  step: StepRequest,
  response: RegistrationResponseJSON,
): Promise<void> {
  const { flow } = step;
  const accountId = await requireSecondFactor(deps, request, step, "passkey", { setUp: true });
  const pending = await takeChallenge(deps, flow, "create");
  const guess = await reserveSecondFactorGuess(deps, step, accountId);
  if (!guess) return;
  const passkey = await verifyRegistration(deps, step, response, pending);
  if (!passkey || (await findPasskey(deps.db, passkey.credentialId)))
    return refuseSecondFactor(step, guess, "passkeyFailed");
  await guess.forgive();
  const id = newId();
  step.effects.write((db) => insertCredential(db, passkeyRow(id, accountId, passkey), Date.now()));
  await secondFactorAdded(deps, step, accountId, { id, provider: passkeyProvider, name: passkey.name });
  // Registrations require user verification (accounts/passkeys.ts).
  secondFactorProven(
    deps,
    step,
    "passkey",
    amrOf("passkey", { synced: passkey.data.multiDevice, userVerified: true }),
  );
}
