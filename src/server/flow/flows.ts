import type { FastifyBaseLogger } from "fastify";
import type Provider from "oidc-provider";
import type { FlowError, FlowResponse } from "../../common/api/flow.ts";
import type { AppScope } from "../../common/api/app-scope.ts";
import { flowIdPattern } from "../../common/ids.ts";
import { codeResendCooldownMs, type Locale } from "../../common/limits.ts";
import { isOpenIdScope, personalDataScopes } from "../../common/scopes.ts";
import { HttpError } from "../http/errors.ts";
import { requestedLocale } from "../http/locale.ts";
import type { Database } from "../store/database.ts";
import { findFlow, insertFlow, updateFlowState, type FlowRow, type SessionRow } from "../store/flows.ts";
import { findActiveClient } from "../store/clients.ts";
import { applicationOf } from "../organizations/applications.ts";
import { requestedAcr } from "../accounts/second-factors.ts";
import { isAccountClient } from "../oidc/account-client.ts";
import {
  lastCompleted,
  newFlowState,
  type CodeState,
  type FlowState,
  type RequestedAccess,
} from "./state.ts";
import type { Device } from "./known-device.ts";
import { StepEffects } from "./step-effects.ts";

/** One request to a flow step: the flow, what the step will store with it, and who asks. */
export interface StepRequest {
  flow: Flow;
  effects: StepEffects;
  /** What the step's answer gives the browser besides the flow's state (a passkey ceremony's options). */
  answer: StepAnswer;
  log: FastifyBaseLogger;
  address: string;
  /** The browser's device cookie (a new one when it has none). */
  device: Device;
  locale: Locale;
}

export interface Flow {
  id: string;
  clientId: string;
  organizationId: string;
  applicationId: string;
  version: number;
  expiresAt: number;
  state: FlowState;
  /** The state as stored at `version`: a step that changes nothing stores nothing. */
  storedState: string;
  /** The live session the request's cookie names, when it was read with the flow (`null`: none). */
  browserSession?: SessionRow | null;
}

/** What a step's answer may carry besides the flow's state. */
export type StepAnswer = Pick<
  FlowResponse,
  "passkey" | "signalUnknown" | "thirdPartyProvider" | "codeAfterPassword" | "totpSetUp" | "recoveryCodes"
>;

/** A flow step the person can correct: answered 400 with the flow's state and the error code. */
export class FlowStepError extends Error {
  override name = "FlowStepError";
  readonly flow: Flow;
  readonly code: FlowError;
  /** Set when a limit refused the step: it is answered 429 with this `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(flow: Flow, code: FlowError, retryAfterMs?: number) {
    super(code);
    this.flow = flow;
    this.code = code;
    this.retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  }
}

/**
 * The scopes an authorization request asks for: the app's own, and the OpenID scopes that give it the
 * identity's data. The engine has refused any scope the client was not granted before the flow began,
 * so the request's scopes other than the OpenID ones are the app's.
 */
function accessAskedFor(params: Record<string, unknown>): RequestedAccess {
  const asked = new Set(typeof params.scope === "string" ? params.scope.split(" ") : []);
  return {
    appScopes: [...asked].filter((name) => name !== "" && !isOpenIdScope(name)),
    personalData: personalDataScopes.filter((name) => asked.has(name)),
    requestedAcr: requestedAcr(params.acr_values),
  };
}

/**
 * The flow with this ID. A flow begins as oidc-provider's interaction for an authorization request;
 * its row is stored with the first step that changes it, and lives as long as the interaction.
 */
export async function loadFlow(
  db: Database,
  provider: Provider,
  id: string,
  /** How its row is read: with the request's session (findFlowOfRequest), or alone. */
  findRow: () => Promise<(FlowRow & Pick<Flow, "browserSession">) | undefined> = () =>
    findFlow(db, id, Date.now()),
): Promise<Flow> {
  // An ID of another shape names no flow: no query is made for it.
  if (!flowIdPattern.test(id)) throw new HttpError(404, "notFound", "no such flow");
  const row = await findRow();
  if (row) return { ...row, state: JSON.parse(row.state) as FlowState, storedState: row.state };
  const interaction = await provider.Interaction.find(id);
  const clientId = interaction?.params.client_id;
  const client = typeof clientId === "string" ? await findActiveClient(db, clientId) : undefined;
  if (!interaction || !client) throw new HttpError(404, "notFound", "no such flow");
  const state = newFlowState(
    requestedLocale(interaction.params.ui_locales),
    accessAskedFor(interaction.params),
  );
  return {
    id,
    clientId: client.id,
    organizationId: client.organizationId,
    applicationId: client.applicationId,
    version: unstoredVersion,
    expiresAt: interaction.exp * 1000,
    state,
    storedState: JSON.stringify(state),
  };
}

/** The version of a flow whose row is not stored yet: its first change inserts it. */
const unstoredVersion = 0;

/** Stores the flow's state: the first time as a new row, then only if nobody saved since it was read. */
async function storeState(db: Database, flow: Flow, state: string): Promise<boolean> {
  if (flow.version !== unstoredVersion) return updateFlowState(db, flow.id, flow.version, state);
  return insertFlow(db, { ...flow, state, version: unstoredVersion + 1 }, Date.now());
}

/**
 * Stores the flow's new state together with the step's other writes, all or nothing. A step that
 * raced another on the same flow gets 409, and nothing it did is stored.
 */
export async function commitStep(db: Database, flow: Flow, effects: StepEffects): Promise<void> {
  const state = JSON.stringify(flow.state);
  if (state === flow.storedState && effects.writes.length === 0) return;
  const store = async (executor: Database) => {
    if (!(await storeState(executor, flow, state))) {
      throw new HttpError(409, "conflict", "the flow changed meanwhile; reload it");
    }
    for (const write of effects.writes) await write(executor);
  };
  await (effects.writes.length === 0 ? store(db) : db.transaction().execute(store));
  flow.version += 1;
  flow.storedState = state;
}

/** Stores the flow's new state alone (see commitStep). */
export const saveFlow = (db: Database, flow: Flow) => commitStep(db, flow, new StepEffects());

/** The scopes with their descriptions, as the app's template defines them, in the request's order. */
function describedScopes(names: readonly string[], defined: readonly AppScope[]): AppScope[] {
  return names.flatMap((name) => defined.filter((scope) => scope.name === name));
}

/** How long until another code may be sent, while that is still to come. */
function resendWait(code: CodeState, now: number): Pick<FlowResponse, "resendInSeconds"> {
  const seconds = Math.ceil((code.lastSentAt + codeResendCooldownMs - now) / 1000);
  return seconds > 0 ? { resendInSeconds: seconds } : {};
}

export async function flowResponse(
  db: Database,
  flow: Flow,
  error?: FlowError,
  answer: StepAnswer = {},
): Promise<FlowResponse> {
  const application = await applicationOf(db, flow.organizationId, flow.applicationId);
  const { state } = flow;
  return {
    completed: state.completed,
    ...((await isAccountClient(db, flow.clientId)) ? { accountPage: true as const } : {}),
    organizationId: flow.organizationId,
    appId: flow.applicationId,
    organizationName: application.organizationName,
    appName: application.name,
    ...(state.providers.length > 0 ? { providers: state.providers } : {}),
    ...(state.emailOrUsername ? { emailOrUsername: state.emailOrUsername } : {}),
    ...(state.code ? { codesSent: state.code.sent, ...resendWait(state.code, Date.now()) } : {}),
    ...(state.singleSignOn ? { singleSignOn: true as const } : {}),
    ...(state.locale ? { locale: state.locale } : {}),
    ...(state.appScopes ? { appScopes: describedScopes(state.appScopes, application.appScopes) } : {}),
    ...(state.personalData ? { personalData: state.personalData } : {}),
    ...(state.providerError ? { providerError: state.providerError } : {}),
    // Owed still by a declined flow, but no longer asked for.
    ...(state.secondFactor && lastCompleted(state) !== "declined"
      ? { secondFactor: state.secondFactor }
      : {}),
    ...(state.deletionDueAt !== undefined && !state.secondFactor
      ? { deletionDueAt: new Date(state.deletionDueAt).toISOString() }
      : {}),
    ...(state.completed.includes("finished") && application.homepage
      ? { homepage: application.homepage }
      : {}),
    ...(error ? { error } : {}),
    ...answer,
  };
}
