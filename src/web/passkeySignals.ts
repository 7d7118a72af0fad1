import { sendSignal } from "@simplewebauthn/browser";

/**
 * Tells the browser that this server does not know a passkey (any more), so that it stops offering
 * it. Only a hint: browsers without the WebAuthn signals API cannot take it, and nothing waits for it.
 */
export function signalUnknownPasskey(unknown: { rpId: string; credentialId: string } | undefined): void {
  if (!unknown) return;
  sendSignal({
    signalName: "unknownCredential",
    rpID: unknown.rpId,
    credentialID: unknown.credentialId,
  }).catch(() => undefined);
}
