// Every business constant and limit of the product in one place (spec §9, design.md §6).

export const locales = ["en", "sl"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "en";

/** Scope the console asks for when it signs in (spec §4). */
export const consoleScope = "openid profile email";
/** What the account page's own client asks for: the account, and no identity's data. */
export const accountPageScope = "openid";

/** Time-out of the OpenID discovery request, in milliseconds (spec §9). */
export const discoveryTimeoutMs = 30_000;
/** Clock tolerance when checking token timestamps, in seconds (spec §9). */
export const clockToleranceSeconds = 30;
/** How long browsers may cache a CORS preflight answer, in seconds (spec §7). */
export const corsMaxAgeSeconds = 600;

export const codeLength = 6;
export const passwordMinLength = 8;
export const passwordMaxLength = 1024;
export const usernameOrEmailMinLength = 3;
export const usernameOrEmailMaxLength = 254;
/** An identity's given or full name, in UTF-16 units as every typed identity field is bounded. */
export const identityNameMaxLength = 200;
/**
 * How long a server trusts a client it looked up, in milliseconds. Changes made through the same
 * server apply at once; through another server sharing the database, within this time.
 */
export const clientCacheMs = 1000;
/**
 * Opening a connection to PostgreSQL gives up after this long: a host that takes the connection but
 * never answers costs a request (or a start's attempt) this much, not forever.
 */
export const databaseConnectTimeoutMs = 5_000;

/** Longest text an identity search looks for, in UTF-16 units. */
export const identitySearchMaxLength = 100;
/** Most identities one search answers with; the picker asks for fewer. */
export const identitySearchMaxResults = 20;

/** Largest request body the server reads, in bytes. */
export const bodyLimitBytes = 64 * 1024;

/** Seconds the redirect step counts down before it sends the person back to the app. */
export const redirectCountdownSeconds = 3;
/** Failed password or code attempts that fail a flow (reference §4.5). */
export const maxFlowAttempts = 10;
/** An e-mail code is valid this long, in milliseconds. */
export const codeLifetimeMs = 10 * 60 * 1000;
/** A new code can be sent this long after the previous one, in milliseconds. */
export const codeResendCooldownMs = 30 * 1000;
/** Codes that may be valid at once in one flow. */
export const maxOutstandingCodes = 5;
/**
 * How long the browser lets a person take for a passkey ceremony, in milliseconds; the server keeps
 * the ceremony's challenge as long as the flow lives.
 */
export const passkeyTimeoutMs = 60 * 1000;

const minuteMs = 60 * 1000;

/** Authenticator apps (RFC 6238): 6 digits every 30 s; a code of the step before or after also counts. */
export const totpDigits = 6;
export const totpPeriodSeconds = 30;
export const totpWindowSteps = 1;
/** How long a person has to confirm an authenticator app with its first code. */
export const totpSetUpLifetimeMs = 15 * minuteMs;
/** Recovery codes made at once; each is used once. */
export const recoveryCodeCount = 10;
/** Characters of a recovery code, without the dash shown in its middle. */
export const recoveryCodeLength = 10;

/**
 * How many of something may happen, and how fast that allowance comes back: a bucket holds `limit`
 * and regains all of it over `regainedOverMs` (README "Limits" explains the policy).
 */
export interface RateLimit {
  limit: number;
  regainedOverMs: number;
}

/**
 * Guesses (a password or a code that may be wrong) are counted per account and client (a network
 * address, or a browser that signed in to the account before), per account from anywhere (slower to
 * come back), and per address over all accounts. Code guesses have their own account-wide ceiling, so
 * that someone who keeps the password ceiling full does not also lock the owner out of signing in with
 * a code sent to their mailbox; a known browser is held to its own limits only.
 */
export const rateLimits = {
  guessesPerAccountAndClient: { limit: 10, regainedOverMs: 15 * minuteMs },
  passwordGuessesPerAccount: { limit: 50, regainedOverMs: 60 * minuteMs },
  codeGuessesPerAccount: { limit: 50, regainedOverMs: 60 * minuteMs },
  /** Authenticator and recovery codes, per account from anywhere: a second factor is worth 6 digits. */
  secondFactorGuessesPerAccount: { limit: 10, regainedOverMs: 15 * minuteMs },
  guessesPerAddress: { limit: 100, regainedOverMs: 15 * minuteMs },
  /**
   * E-mails with a code, per recipient address, per account and per requesting network address; from
   * a browser that signed in to the account before, per that browser.
   */
  codesPerRecipient: { limit: 5, regainedOverMs: 30 * minuteMs },
  codesPerAccount: { limit: 8, regainedOverMs: 30 * minuteMs },
  codesPerAddress: { limit: 100, regainedOverMs: 60 * minuteMs },
  /** New accounts (and the password hashes made for them) per network address. */
  signUpsPerAddress: { limit: 100, regainedOverMs: 60 * minuteMs },
  /**
   * People an identity is shared with, named by username or e-mail address: per account that shares,
   * and per person named (an address may be told by e-mail, so it is not to be flooded).
   */
  sharesPerAccount: { limit: 30, regainedOverMs: 60 * minuteMs },
  sharesPerPerson: { limit: 10, regainedOverMs: 60 * minuteMs },
  /**
   * Invitations sent by e-mail, as codes are: per inviting organization, and per address invited (a
   * mailbox is not to be flooded by any number of organizations).
   */
  invitationsPerOrganization: { limit: 30, regainedOverMs: 60 * minuteMs },
  invitationsPerAddress: { limit: 5, regainedOverMs: 60 * minuteMs },
} as const satisfies Record<string, RateLimit>;

/** Password hashes computed at once by one server process; more wait in a queue of this length. */
export const passwordHashesInFlight = 4;
export const passwordHashQueueLength = 64;
/** The longest name of an app that an e-mail quotes; longer names are cut. */
export const appNameInEmailMaxLength = 40;
/** An invitation to an organization can be accepted this long after it was made, in milliseconds. */
export const invitationLifetimeMs = 7 * 24 * 60 * 60 * 1000;
/** The longest name of a passkey, in UTF-16 units. */
export const credentialNameMaxLength = 100;
/** An account's passkey challenge can be answered this long after it was made, in milliseconds. */
export const accountPasskeyChallengeLifetimeMs = 5 * 60 * 1000;

/**
 * How recent a sign-in must be to change how the account signs in without its current password, or to
 * delete the account (NIST 800-63B reauthentication), in milliseconds.
 */
export const freshSignInMaxAgeMs = 10 * 60 * 1000;

/** The notes of a block, for the organization's admins and for the blocked person. */
export const blockNoteMaxLength = 2000;

/**
 * The most an XML document from outside may hold, checked in one pass before it is parsed: the SAML
 * libraries' work grows faster than the document (with the square of an element's children), so a
 * small document of many elements would otherwise keep a worker busy for seconds.
 */
export interface XmlLimits {
  /** Size in bytes (UTF-8). */
  maxBytes: number;
  /** Elements, comments, processing instructions and CDATA sections in all. */
  maxElements: number;
  /** How deep elements nest (the root is 1 deep). */
  maxDepth: number;
  /** Children of one element (or of the document). */
  maxSiblings: number;
}

/** Upstream SAML identity providers: their metadata, and the responses they send back. */
export const samlMetadata = {
  /** How often an IdP's metadata is read again, and how soon after a failure while none is known. */
  refreshMs: 6 * 60 * minuteMs,
  retryMs: minuteMs,
  /** How long fetching it may take. */
  timeoutMs: 30_000,
  /** The largest metadata document read: a federation's lists every member, thousands of them. */
  maxBytes: 32 * 1024 * 1024,
  maxElements: 1_000_000,
  maxDepth: 64,
  maxSiblings: 100_000,
  /** The memory reading one may take, in MiB: more ends the thread reading it, not the process. */
  maxHeapMb: 2048,
} as const;
/**
 * The largest SAML response read (decoded). A real one, signed, with a chain of certificates and a
 * few hundred attribute values, has some hundred elements, at most a few deep in structure and
 * attribute values; checking one at these limits takes the SAML libraries a few hundred ms.
 */
export const samlResponseXml = {
  maxBytes: 256 * 1024,
  maxElements: 2000,
  maxDepth: 32,
  maxSiblings: 1000,
} as const satisfies XmlLimits;
/** How far the IdP's clock may be off when an assertion's NotBefore / NotOnOrAfter is checked. */
export const samlClockToleranceMs = 30_000;
/** The longest NameID or identifying attribute value accepted as a person's ID at an IdP. */
export const samlSubjectMaxLength = 1024;
/** People and identities one identity can be shared with, per role. */
export const identityMembersMax = 100;

/** How long a sign-in at a third-party provider may take before its answer is refused, in milliseconds. */
export const upstreamRequestLifetimeMs = 30 * 60 * 1000;
/** Seconds the third-party provider step counts down before it sends the browser to the provider. */
export const providerCountdownSeconds = 3;
