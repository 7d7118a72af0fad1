// The formats of the identifiers that travel in paths, query strings and bodies. A value of another
// shape cannot name anything, so it is refused before any query is made.

/** Vrata's IDs: 128 random bits in base58, always 22 characters (reference §1.2). */
export const idPattern = /^[1-9A-HJ-NP-Za-km-z]{22}$/;

/** A flow's ID: the OIDC engine's interaction uid, a nanoid of 43 URL-safe characters. */
export const flowIdPattern = /^[\w-]{43}$/;

/** A third-party provider's key as the configuration names it ("google"). */
export const providerKeyPattern = /^[\w-]{1,64}$/;

/** The token of a link sent by e-mail: 32 random bytes in base64url, always 43 characters. */
export const linkTokenPattern = /^[\w-]{43}$/;
