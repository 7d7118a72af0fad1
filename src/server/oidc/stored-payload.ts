import type { AdapterPayload } from "oidc-provider";
import type { Sealer } from "../secrets/sealing.ts";

// An artifact's ID is the token, code or cookie value itself, and the store keeps only its keyed
// hash (oidc/adapter.ts). The payload's own copy of the ID (`jti`) is left out and put back from the
// ID the engine looks up by. Artifacts also found by uid or user code, where the engine has no ID to
// give, keep theirs sealed instead; so do the other values a reader could use: a device flow's user
// code, and an interaction's note of the session cookie it began in.

type StoredPayload = AdapterPayload & { sealedJti?: string };

const contexts = { jti: "jti", userCode: "userCode", sessionCookie: "Interaction session cookie" } as const;

/** The payload as the store keeps it. */
export function storedPayload(sealer: Sealer, id: string, payload: AdapterPayload): string {
  const stored: StoredPayload = { ...payload };
  delete stored.jti;
  if (payload.uid !== undefined || payload.userCode !== undefined) {
    stored.sealedJti = sealer.seal(id, contexts.jti);
  }
  if (payload.userCode !== undefined) stored.userCode = sealer.seal(payload.userCode, contexts.userCode);
  if (payload.session?.cookie !== undefined) {
    stored.session = {
      ...payload.session,
      cookie: sealer.seal(payload.session.cookie, contexts.sessionCookie),
    };
  }
  return JSON.stringify(stored);
}

/** The payload as the engine gave it, from what the store keeps; `id` is what it was found by, if that. */
export function revealedPayload(sealer: Sealer, stored: string, id: string | undefined): AdapterPayload {
  const { sealedJti, ...payload } = JSON.parse(stored) as StoredPayload;
  const jti = id ?? (sealedJti === undefined ? undefined : sealer.open(sealedJti, contexts.jti));
  if (jti !== undefined) payload.jti = jti;
  if (payload.userCode !== undefined) payload.userCode = sealer.open(payload.userCode, contexts.userCode);
  if (payload.session?.cookie !== undefined) {
    payload.session.cookie = sealer.open(payload.session.cookie, contexts.sessionCookie);
  }
  return payload;
}
