/**
 * Why a SAML sign-in was refused, as stable codes the web app translates. Each is the IdP's or the
 * browser's fault (a 4xx, a failed flow), never the server's.
 */
export const samlErrorCodes = [
  /** The IdP's metadata could not be loaded yet: the IdP cannot be used for now. */
  "samlIdpUnavailable",
  /** Not base64, not XML, or not a SAML response. */
  "samlResponseMalformed",
  /** Neither the response nor its assertion carries a valid signature by the IdP's certificates. */
  "samlSignatureInvalid",
  /**
   * The encrypted assertion does not decrypt with Vrata's encryption key, uses an algorithm Vrata does
   * not publish, or does not hold an assertion signed by the IdP (one answer for all three, so that
   * an altered ciphertext teaches nothing).
   */
  "samlDecryptionFailed",
  /** The response comes from another entity than the configured IdP. */
  "samlIssuerMismatch",
  /** The assertion is meant for another service provider. */
  "samlAudienceMismatch",
  /** The assertion's NotOnOrAfter has passed (beyond the clock tolerance). */
  "samlExpired",
  /** The assertion's NotBefore is still ahead (beyond the clock tolerance). */
  "samlNotYetValid",
  /** The response does not answer the request this flow sent. */
  "samlInResponseToMismatch",
  /** The RelayState posted back is not the one this flow sent. */
  "samlRelayStateMismatch",
  /** The response was sent to another address than Vrata's assertion consumer service, or, signed, names none. */
  "samlDestinationMismatch",
  /** The assertion is confirmed for another recipient than Vrata's assertion consumer service, or for none. */
  "samlRecipientMismatch",
  /** The assertion was accepted before: a response is used once. */
  "samlAssertionReplayed",
  /** The NameID is transient: it would be a new person at every sign-in. */
  "samlTransientNameId",
  /** The NameID's format does not promise a stable identifier. */
  "samlNameIdFormat",
  /** The NameID or the identifying attribute is missing or empty. */
  "samlSubjectMissing",
  /**
   * The IdP answered this sign-in's own request that the person cancelled, could not authenticate or
   * is not allowed: the sign-in ends, as with an OIDC provider's `access_denied`.
   */
  "samlIdpRefused",
  /** The IdP answered this sign-in's own request with another error status: the sign-in ends. */
  "samlIdpStatus",
  /** Any other reason the response is not acceptable. */
  "samlResponseInvalid",
] as const;

export type SamlErrorCode = (typeof samlErrorCodes)[number];

export class SamlError extends Error {
  override name = "SamlError";
  readonly code: SamlErrorCode;

  constructor(code: SamlErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
