import { randomInt, timingSafeEqual } from "node:crypto";
import {
  codeLength,
  codeLifetimeMs,
  codeResendCooldownMs,
  maxOutstandingCodes,
  type Locale,
} from "../../common/limits.ts";
import { codeMessage } from "../mail/code-message.ts";
import type { KeyedHash } from "../secrets/keyed-hash.ts";
import type { FlowDeps } from "./deps.ts";
import type { Flow } from "./flows.ts";
import type { CodeTarget } from "./state.ts";

/**
 * Keyed: a code has too few digits for a plain hash beside its flow's (or its verification's) ID to
 * keep it from a store's reader.
 */
export const hashCode = (emailCodes: KeyedHash, scope: string, code: string) =>
  Buffer.from(emailCodes(`${scope}:${code}`), "base64url");

/** The code as typed, without spaces, when it has the form of one. */
export function typedCode(typed: string): string | undefined {
  const code = typed.replace(/\s/g, "");
  return new RegExp(`^\\d{${codeLength}}$`).test(code) ? code : undefined;
}

export function newCode(): string {
  return String(randomInt(0, 10 ** codeLength)).padStart(codeLength, "0");
}

/** Whether a code may be sent now, or the last one went out too recently. */
export function mayResend(flow: Flow, identifierKey: string, now: number): boolean {
  const code = flow.state.code;
  return !code || code.identifierKey !== identifierKey || now - code.lastSentAt >= codeResendCooldownMs;
}

/**
 * Sends a new code for the target and, once the SMTP server took it, remembers its hash. Earlier codes
 * for the same identifier stay valid until they expire (at most a few at once); a different identifier
 * starts over, so a code for one mailbox never verifies another.
 */
export async function sendCode(
  deps: FlowDeps,
  flow: Flow,
  request: {
    identifierKey: string;
    target: CodeTarget;
    recipients: string[];
    locale: Locale;
    appName: string;
  },
): Promise<void> {
  const code = newCode();
  await deps.mailer.send(
    codeMessage({
      to: request.recipients,
      code,
      link: `${deps.issuer}/auth/${flow.id}#code=${code}`,
      title: deps.title,
      issuer: deps.issuer,
      appName: request.appName,
      locale: request.locale,
    }),
  );
  const now = Date.now();
  const previous = flow.state.code?.identifierKey === request.identifierKey ? flow.state.code : undefined;
  const stillValid = (previous?.codes ?? []).filter((sent) => sent.expiresAt > now);
  flow.state.code = {
    identifierKey: request.identifierKey,
    codes: [
      ...stillValid,
      {
        hash: hashCode(deps.secrets.emailCodes, flow.id, code).toString("base64url"),
        expiresAt: now + codeLifetimeMs,
      },
    ].slice(-maxOutstandingCodes),
    sent: (previous?.sent ?? 0) + 1,
    lastSentAt: now,
    target: request.target,
  };
}

/** Whether the typed code is one of the flow's valid codes; compared in constant time. */
export function codeMatches(deps: FlowDeps, flow: Flow, typed: string): boolean {
  const code = typedCode(typed);
  if (code === undefined || !flow.state.code) return false;
  const typedHash = hashCode(deps.secrets.emailCodes, flow.id, code);
  const now = Date.now();
  let matched = false;
  for (const sent of flow.state.code.codes) {
    const equal = timingSafeEqual(Buffer.from(sent.hash, "base64url"), typedHash);
    matched = (equal && sent.expiresAt > now) || matched;
  }
  return matched;
}
