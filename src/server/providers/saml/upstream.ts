import { randomBytes, timingSafeEqual } from "node:crypto";
import { SAML, SamlStatusError, ValidateInResponseTo, type CacheProvider } from "@node-saml/node-saml";
import { samlClockToleranceMs, samlResponseXml } from "../../../common/limits.ts";
import { pathFor } from "../../../common/routes.ts";
import { checkEncryptedAssertion } from "./encrypted-assertion.ts";
import type { RecordAssertionUse } from "./assertion-uses.ts";
import { checkDestination, confirmedAssertion } from "./confirmation.ts";
import { SamlError, type SamlErrorCode } from "./errors.ts";
import type { IdpMetadata } from "./idp-metadata.ts";
import { identityFromProfile, type SamlIdentity } from "./identity.ts";
import { openIdpMetadataSource, type MetadataSourceOptions } from "./metadata-source.ts";
import { namespaces, personRefusedStatuses, statusSuccess } from "./saml-names.ts";
import { requestedNameIdFormat, type SamlProviderSettings } from "./settings.ts";
import type { SamlSpCredentials } from "./sp-credentials.ts";
import { childElements, MalformedXml, parseXml } from "./xml.ts";

/** A name in each of Vrata's languages. */
export interface LocalizedName {
  en: string;
  sl: string;
}

/** One configured SAML identity provider, ready for sign-ins: Vrata's side of it and the IdP's. */
export interface SamlUpstream {
  readonly settings: SamlProviderSettings;
  /** Vrata's entity ID at this IdP. */
  readonly entityId: string;
  /** Where the IdP posts its responses (HTTP-POST binding). */
  readonly acsUrl: string;
  readonly credentials: SamlSpCredentials;
  /** The service the IdP shows people they are signing in to (the instance's title). */
  readonly serviceName: LocalizedName;
  /** The IdP's metadata as last read, or undefined while none could be. */
  idp: () => IdpMetadata | undefined;
  /** Keeps the assertions accepted, so that each is accepted once. */
  recordAssertionUse: RecordAssertionUse;
  /** Stops refreshing the IdP's metadata. */
  close: () => void;
}

export interface SamlUpstreamOptions extends MetadataSourceOptions {
  /** Vrata's public origin. */
  issuer: string;
  credentials: SamlSpCredentials;
  serviceName: LocalizedName;
  /** Where the assertions accepted are kept, so that each is accepted once. */
  recordAssertionUse: RecordAssertionUse;
}

/** Reads the IdP's metadata (see `openIdpMetadataSource`) and sets Vrata's side of the IdP up. */
export async function openSamlUpstream(
  settings: SamlProviderSettings,
  { issuer, credentials, serviceName, recordAssertionUse, ...sourceOptions }: SamlUpstreamOptions,
): Promise<SamlUpstream> {
  const source = await openIdpMetadataSource(settings, sourceOptions);
  return {
    settings,
    entityId: settings.entityId ?? issuer + pathFor("SAMLMetadata", { provider: settings.key }),
    acsUrl: issuer + pathFor("AuthThirdPartyProvider", { provider: settings.key }),
    credentials,
    serviceName,
    idp: source.current,
    recordAssertionUse,
    close: source.close,
  };
}

function currentIdp(upstream: SamlUpstream): IdpMetadata {
  const idp = upstream.idp();
  if (!idp) {
    throw new SamlError(
      "samlIdpUnavailable",
      `the metadata of the IdP ${upstream.settings.key} could not be read yet`,
    );
  }
  return idp;
}

const noCache: CacheProvider = {
  saveAsync: () => Promise.resolve(null),
  getAsync: () => Promise.resolve(null),
  removeAsync: () => Promise.resolve(null),
};

function client(upstream: SamlUpstream, idp: IdpMetadata, requests: CacheProvider, requestId = ""): SAML {
  return new SAML({
    entryPoint: idp.ssoRedirectUrl,
    issuer: upstream.entityId,
    audience: upstream.entityId,
    callbackUrl: upstream.acsUrl,
    idpCert: idp.signingCertificates,
    privateKey: upstream.credentials.signing.privateKeyPem,
    publicCert: upstream.credentials.signing.certificatePem,
    decryptionPvk: upstream.credentials.encryption.privateKeyPem,
    signatureAlgorithm: "sha256",
    authnRequestBinding: "HTTP-Redirect",
    identifierFormat: requestedNameIdFormat(upstream.settings) ?? null,
    // How the person authenticates is the IdP's business (an eID asks for more than a password).
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: samlClockToleranceMs,
    // Either signature will do: node-saml then requires the assertion's when the response has none.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    // The request IDs live in the flows: the cache answers only for the flow's own request.
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: requests,
    generateUniqueId: () => requestId,
  });
}

/** Where to send the browser, and what the flow keeps to check the answer. */
export interface SamlStart {
  /** The IdP's sign-in address with the signed AuthnRequest (HTTP-Redirect binding). */
  url: string;
  /** The AuthnRequest's ID: the response must be `InResponseTo` it. */
  requestId: string;
  /** The RelayState the IdP posts back with the response. */
  relayState: string;
}

const randomToken = () => randomBytes(24).toString("base64url");

/**
 * Starts a sign-in at the IdP: a signed AuthnRequest with a fresh ID and a `relayState` binding the
 * answer to the flow (a random one unless given; at most 80 bytes, as SAML allows).
 */
export async function samlStart(
  upstream: SamlUpstream,
  { relayState = randomToken() } = {},
): Promise<SamlStart> {
  if (Buffer.byteLength(relayState) > 80) throw new RangeError("a SAML RelayState is at most 80 bytes");
  const idp = currentIdp(upstream);
  // An XML ID must not start with a digit.
  const requestId = `_${randomBytes(20).toString("hex")}`;
  const url = await client(upstream, idp, noCache, requestId).getAuthorizeUrlAsync(relayState, undefined, {});
  return { url, requestId, relayState };
}

/** What the IdP posted to the ACS URL, and what the flow expects of it. */
export interface SamlCompleteInput {
  /** The `SAMLResponse` form field, as posted. */
  samlResponse: unknown;
  /** The `RelayState` form field, as posted. */
  relayState: unknown;
  expected: { requestId: string; relayState: string };
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * The posted response, checked to be one well-formed SAML Response with a success status before any
 * signature work, and its root element. Another status ends the sign-in (`samlIdpRefused`,
 * `samlIdpStatus`) when it answers this sign-in's own request, from the IdP: IdPs seldom sign an error,
 * and only the browser that started the sign-in, posting its RelayState, gets this far, so it ends no
 * sign-in but the person's.
 */
function checkedResponse(
  samlResponse: unknown,
  expected: { requestId: string; issuer: string },
): { samlResponse: string; response: Element } {
  // Whitespace goes first: a pattern allowing it both inside and at the end takes quadratic time.
  const base64 = typeof samlResponse === "string" ? samlResponse.replace(/\s+/g, "") : "";
  if (typeof samlResponse !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    throw new SamlError("samlResponseMalformed", "SAMLResponse is not base64");
  }
  const xml = Buffer.from(base64, "base64").toString("utf8");
  let root: Element;
  try {
    root = parseXml(xml, samlResponseXml).documentElement;
  } catch (error) {
    if (error instanceof MalformedXml)
      throw new SamlError("samlResponseMalformed", `SAMLResponse: ${error.message}`);
    throw error;
  }
  if (root.namespaceURI !== namespaces.protocol || root.localName !== "Response") {
    throw new SamlError("samlResponseMalformed", "SAMLResponse is not a SAML Response");
  }
  // node-saml reads an assertion even when the status says the IdP failed; a failure is a failure.
  const status = childElements(root, namespaces.protocol, "Status")[0];
  const statusCode = status && childElements(status, namespaces.protocol, "StatusCode")[0];
  const value = statusCode?.getAttribute("Value");
  if (!statusCode || !value) throw new SamlError("samlResponseMalformed", "the response has no status");
  if (value !== statusSuccess) {
    const inResponseTo = root.getAttribute("InResponseTo");
    if (!inResponseTo || !sameText(inResponseTo, expected.requestId))
      throw new SamlError("samlInResponseToMismatch", `an error status (${value}) for another request`);
    const issuer = childElements(root, namespaces.assertion, "Issuer")[0]?.textContent.trim();
    if (issuer !== undefined && issuer !== expected.issuer)
      throw new SamlError(
        "samlIssuerMismatch",
        `an error status issued by ${issuer}, not ${expected.issuer}`,
      );
    const detail = childElements(statusCode, namespaces.protocol, "StatusCode")[0]?.getAttribute("Value");
    throw new SamlError(
      detail && personRefusedStatuses.has(detail) ? "samlIdpRefused" : "samlIdpStatus",
      `the IdP answered ${value}${detail ? ` (${detail})` : ""}`,
    );
  }
  return { samlResponse, response: root };
}

// node-saml says why it refused a response only in its messages; these are its words (5.x).
const refusals: [RegExp, SamlErrorCode][] = [
  [/InResponseTo/i, "samlInResponseToMismatch"],
  [/signature|signed data/i, "samlSignatureInvalid"],
  [/audience/i, "samlAudienceMismatch"],
  [/not yet valid/i, "samlNotYetValid"],
  [/expired|no valid subject confirmation/i, "samlExpired"],
  [/error parsing|invalid date/i, "samlResponseMalformed"],
];

function refusal(error: unknown, inResponseToRefused: boolean): SamlError {
  if (error instanceof SamlError) return error;
  if (error instanceof SamlStatusError) return new SamlError("samlIdpStatus", error.message);
  const message = error instanceof Error ? error.message : String(error);
  if (inResponseToRefused) return new SamlError("samlInResponseToMismatch", message);
  const code = refusals.find(([pattern]) => pattern.test(message))?.[1] ?? "samlResponseInvalid";
  return new SamlError(code, message);
}

/**
 * Checks a response the IdP posted and returns the person it names. Refused, with a `SamlError`
 * (and never another error): a RelayState or `InResponseTo` other than the flow's, no valid signature
 * by the IdP on the response or its assertion, another issuer or audience, another Destination or
 * Recipient than Vrata's assertion consumer service, an assertion outside its time window (with the
 * clock tolerance) or accepted before, a transient NameID when the NameID identifies people, no
 * identifying value, or an encrypted assertion that does not decrypt with Vrata's encryption key
 * with an algorithm it publishes.
 */
export async function samlComplete(upstream: SamlUpstream, input: SamlCompleteInput): Promise<SamlIdentity> {
  const { expected } = input;
  let inResponseToRefused = false;
  let encrypted = false;
  try {
    const idp = currentIdp(upstream);
    if (typeof input.relayState !== "string" || !sameText(input.relayState, expected.relayState)) {
      throw new SamlError("samlRelayStateMismatch", "the RelayState is not this sign-in's");
    }
    const { samlResponse, response } = checkedResponse(input.samlResponse, {
      requestId: expected.requestId,
      issuer: idp.entityId,
    });
    checkDestination(response, upstream.acsUrl);
    encrypted = await checkEncryptedAssertion(response, upstream.credentials.encryption.privateKeyPem);
    const requests: CacheProvider = {
      ...noCache,
      getAsync: (requestId) => {
        if (sameText(requestId, expected.requestId)) return Promise.resolve(new Date().toISOString());
        inResponseToRefused = true;
        return Promise.resolve(null);
      },
    };
    const { profile } = await client(upstream, idp, requests).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    });
    if (!profile) throw new SamlError("samlIdpStatus", "the IdP did not sign the person in");
    const issuer: unknown = profile.issuer;
    if (issuer !== idp.entityId) {
      throw new SamlError(
        "samlIssuerMismatch",
        `the assertion was issued by ${String(issuer)}, not ${idp.entityId}`,
      );
    }
    const assertion = confirmedAssertion(profile.getAssertionXml?.() ?? "", upstream.acsUrl);
    const identity = identityFromProfile(upstream.settings, profile);
    if (!(await upstream.recordAssertionUse(idp.entityId, assertion))) {
      throw new SamlError("samlAssertionReplayed", "the assertion was accepted before");
    }
    return identity;
  } catch (error) {
    const refused = refusal(error, inResponseToRefused);
    // Whether an altered ciphertext still decrypted to an assertion must not show: answered apart
    // from a failed decryption, a failed signature would be a padding oracle on AES-CBC.
    if (encrypted && refused.code === "samlSignatureInvalid")
      throw new SamlError("samlDecryptionFailed", refused.message);
    throw refused;
  }
}
