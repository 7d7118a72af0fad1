import type { FastifyRequest } from "fastify";
import type { Locale } from "../../common/limits.ts";

// What every kind of third-party provider (OIDC, SAML) offers the flow and the account page: where
// to send the browser, and what a verified answer says about the person.

/** The identity fields an upstream answer may fill, as the provider sent them (checked later). */
export interface UpstreamProfile {
  username?: string;
  email?: string;
  /** The provider vouches that the person controls `email`. */
  emailVerified: boolean;
  givenName?: string;
  fullName?: string;
  pictureUrl?: string;
}

/** A person the provider vouched for: its stable subject, and what it said about them. */
export interface UpstreamIdentity {
  /** The provider's stable name of the person (OIDC `sub`, SAML's persistent NameID or attributes). */
  subject: string;
  profile: UpstreamProfile;
  /** Everything the provider said, kept with the credential. */
  claims: Record<string, unknown>;
}

/** What a provider's answer carries besides its own data. */
export interface UpstreamAnswer {
  state: string | undefined;
  /** The provider reported an error instead of a person (OIDC `error`, e.g. access_denied). */
  error: string | undefined;
}

/** The person can do nothing about it: the answer was not for this request, or failed its checks. */
export class UpstreamRefused extends Error {
  override name = "UpstreamRefused";
  /** The check the answer failed, as a stable code the web app words for the person, when known. */
  readonly reason: string | undefined;

  constructor(message: string, reason?: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * How a provider's error ends the sign-in: the person cancelled or was refused (`denied`), or the
 * provider could not sign them in (`failed`). Either way the app is told `access_denied`.
 */
export type UpstreamFailure = "denied" | "failed";

/**
 * The provider answered this very request with an error instead of a person (a SAML status other
 * than Success): the sign-in ends as with an OIDC `error`.
 */
export class UpstreamErrorAnswer extends Error {
  override name = "UpstreamErrorAnswer";
  readonly failure: UpstreamFailure;

  constructor(failure: UpstreamFailure, message: string) {
    super(message);
    this.failure = failure;
  }
}

/** The provider cannot be reached (its discovery failed): sign-ins with it wait until it can. */
export class UpstreamUnavailable extends Error {
  override name = "UpstreamUnavailable";
}

/**
 * What the provider says of itself contradicts its settings (another issuer, no support for the
 * token endpoint authentication method): the operator has to change its entry. The message starts
 * with the field to change.
 */
export class UpstreamMisconfigured extends Error {
  override name = "UpstreamMisconfigured";
}

export interface Upstream {
  key: string;
  type: "oidc" | "saml";
  name: Record<Locale, string>;
  /** Where to send the browser for a sign-in answered with `state`; `data` is kept until it returns. */
  start: (state: string) => Promise<{ location: string; data: Record<string, unknown> }>;
  /** The state and error of the provider's answer, read before anything is checked. */
  answerOf: (request: FastifyRequest) => UpstreamAnswer;
  /**
   * Checks the answer against the request's data; throws {@link UpstreamRefused} when it fails, and
   * {@link UpstreamErrorAnswer} when it is an error the provider answered the request with.
   */
  finish: (
    request: FastifyRequest,
    data: Record<string, unknown>,
    answer: UpstreamAnswer,
  ) => Promise<UpstreamIdentity>;
}

/** The address the provider sends the browser back to. */
export const callbackUrl = (issuer: string, key: string) => `${issuer}/auth/provider/${key}`;
