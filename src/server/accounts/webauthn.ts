// SimpleWebAuthn, with the ASN.1 and certificate libraries under it, is about a sixth of a worker's
// modules: it is loaded at the first passkey ceremony rather than by every worker as it starts.

/** The WebAuthn library, loaded on first use (later calls get the same module). */
export const webauthn = () => import("@simplewebauthn/server");
