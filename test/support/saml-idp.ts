import { randomBytes } from "node:crypto";
import { samlMetadata } from "../../src/common/limits.ts";
import * as samlify from "samlify";
import { pemBody } from "../../src/server/providers/saml/pem.ts";
import { namespaces, nameIdFormats, statusSuccess } from "../../src/server/providers/saml/saml-names.ts";
import type { SamlKeyPair } from "../../src/server/providers/saml/sp-credentials.ts";
import { parseXml } from "../../src/server/providers/saml/xml.ts";

// A SAML IdP for the tests: samlify in IdP mode, with keys of its own. samlify insists on a schema
// validator before it reads any message; the schemas need Java or a WebAssembly build that is not
// installed here, so the IdP gets a well-formedness check only (this is the IdP's side: Vrata's own
// parsing is what is under test).
samlify.setSchemaValidator({ validate: (xml: string) => Promise.resolve(parseXml(xml, samlMetadata)) });

export const idpEntityId = "https://idp.test/metadata";
const { SamlLib } = samlify;

export const attributeNames = {
  mail: "urn:oid:0.9.2342.19200300.100.1.3",
  givenName: "urn:oid:2.5.4.42",
  displayName: "urn:oid:2.16.840.1.113730.3.1.241",
  uid: "urn:oid:0.9.2342.19200300.100.1.1",
  employeeNumber: "urn:oid:2.16.840.1.113730.3.1.3",
};

const attributeTemplates = [
  { name: attributeNames.mail, valueTag: "mail" },
  { name: attributeNames.givenName, valueTag: "givenName" },
  { name: attributeNames.displayName, valueTag: "displayName" },
  { name: attributeNames.uid, valueTag: "uid" },
  { name: attributeNames.employeeNumber, valueTag: "employeeNumber" },
].map((attribute) => ({
  ...attribute,
  nameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:uri",
  valueXsiType: "xs:string",
}));

const person = {
  attrMail: "  ana.novak@example.si ",
  attrGivenName: "Ana",
  attrDisplayName: "Ana Novak",
  attrUid: "anovak",
  attrEmployeeNumber: "E-1042",
};

/** How a samlify IdP encrypts its assertions, and the certificate its metadata offers for encryption. */
export interface IdpEncryption {
  isAssertionEncrypted?: boolean;
  dataEncryptionAlgorithm?: string;
  keyEncryptionAlgorithm?: string;
  encryptCert?: string;
}

export const xmlenc = {
  aes256gcm: "http://www.w3.org/2009/xmlenc11#aes256-gcm",
  aes128gcm: "http://www.w3.org/2009/xmlenc11#aes128-gcm",
  aes256cbc: "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
  aes128cbc: "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
  tripleDes: "http://www.w3.org/2001/04/xmlenc#tripledes-cbc",
  rsaOaep: "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
  rsa15: "http://www.w3.org/2001/04/xmlenc#rsa-1_5",
};

/** Encrypts its assertions as `data` and `key` say (AES-128-GCM and RSA-OAEP unless told). */
export const encrypting = (data = xmlenc.aes128gcm, key = xmlenc.rsaOaep): IdpEncryption => ({
  isAssertionEncrypted: true,
  dataEncryptionAlgorithm: data,
  keyEncryptionAlgorithm: key,
});

/** An IdP: samlify with its own key, answering at `ssoUrl`; `encryption` makes it encrypt assertions. */
export function identityProvider(
  keys: SamlKeyPair,
  ssoUrl: string,
  entityID = idpEntityId,
  encryption: IdpEncryption = {},
) {
  return samlify.IdentityProvider({
    ...encryption,
    entityID,
    privateKey: keys.privateKeyPem,
    signingCert: keys.certificatePem,
    wantAuthnRequestsSigned: true,
    nameIDFormat: [nameIdFormats.persistent],
    singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: ssoUrl }],
    loginResponseTemplate: {
      context: SamlLib.defaultLoginResponseTemplate.context,
      attributes: attributeTemplates,
    },
  });
}

export type Idp = ReturnType<typeof identityProvider>;
export type Sp = ReturnType<typeof samlify.ServiceProvider>;

/** SP metadata with the certificate of its encryption key swapped for `other`'s. */
export function encryptingTo(metadata: string, other: SamlKeyPair): string {
  const encryptionKey = Array.from(
    parseXml(metadata, samlMetadata).getElementsByTagNameNS(namespaces.metadata, "KeyDescriptor"),
  ).find((key) => key.getAttribute("use") === "encryption");
  const certificate = encryptionKey?.getElementsByTagNameNS(namespaces.signature, "X509Certificate")[0];
  if (!certificate?.textContent) throw new Error("the metadata has no encryption certificate");
  return metadata.replace(certificate.textContent, pemBody(other.certificatePem));
}

/** The algorithms of the response's encryption, as the IdP wrote them. */
export const encryptionMethods = (samlResponse: string) =>
  Array.from(
    parseXml(Buffer.from(samlResponse, "base64").toString(), samlMetadata).getElementsByTagNameNS(
      "http://www.w3.org/2001/04/xmlenc#",
      "EncryptionMethod",
    ),
  ).map((method) => method.getAttribute("Algorithm"));

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** What the IdP makes of the browser arriving at `url`: it checks the request's signature. */
export async function idpReceives(idp: Idp, sp: Sp, { url: address }: { url: string }) {
  const url = new URL(address);
  const query = Object.fromEntries(url.searchParams);
  // The signed octets are the query as sent, without the signature.
  const octetString = url.search
    .slice(1)
    .split("&")
    .filter((part) => !part.startsWith("Signature="))
    .join("&");
  const { extract } = await idp.parseLoginRequest(sp, "redirect", { query, octetString, body: {} });
  return {
    info: { extract },
    id: text(extract.request?.id),
    issuer: text(extract.issuer),
    acsUrl: text(extract.request?.assertionConsumerServiceUrl),
    nameIdFormat: text(extract.nameIDPolicy?.format),
    relayState: url.searchParams.get("RelayState") ?? "",
  };
}

export type ReceivedRequest = Awaited<ReturnType<typeof idpReceives>>;
export type ResponseValues = Record<string, string>;

/** The values samlify fills its response template with, as it would for `requestId`. */
export function responseValues(requestId: string, acsUrl: string, audience: string): ResponseValues {
  const now = Date.now();
  const later = new Date(now + 5 * 60_000).toISOString();
  return {
    ID: `_${randomBytes(16).toString("hex")}`,
    AssertionID: `_${randomBytes(16).toString("hex")}`,
    Destination: acsUrl,
    Audience: audience,
    EntityID: audience,
    SubjectRecipient: acsUrl,
    Issuer: idpEntityId,
    IssueInstant: new Date(now).toISOString(),
    AssertionConsumerServiceURL: acsUrl,
    StatusCode: statusSuccess,
    ConditionsNotBefore: new Date(now).toISOString(),
    ConditionsNotOnOrAfter: later,
    SubjectConfirmationDataNotOnOrAfter: later,
    NameIDFormat: nameIdFormats.persistent,
    NameID: "ana-4c1d9",
    InResponseTo: requestId,
    AuthnStatement: "",
    ...person,
  };
}

/** A change to the IdP's response template before it is filled in (and signed). */
export type TemplateEdit = (template: string) => string;
const unchanged: TemplateEdit = (template) => template;

/**
 * The IdP's signed response (base64, as posted) to the request it received, filled with `values`
 * into its template changed by `edit`; an IdP that encrypts assertions signs the response after
 * encrypting when `encryptThenSign` says so.
 */

export async function signedResponse(
  signer: Idp,
  sp: Sp,
  request: Pick<ReceivedRequest, "info">,
  values: ResponseValues,
  { encryptThenSign = false, edit = unchanged }: { encryptThenSign?: boolean; edit?: TemplateEdit } = {},
): Promise<string> {
  const response = await signer.createLoginResponse(
    sp,
    request.info,
    "post",
    {},
    {
      customTagReplacement: (context) => ({
        id: values.ID ?? "",
        context: SamlLib.replaceTagsByValue(edit(context), values),
      }),
      encryptThenSign,
    },
  );
  return response.context;
}

/** A signed response whose content was changed after signing: the signature no longer matches it. */
export const alteredResponse = (samlResponse: string) =>
  Buffer.from(Buffer.from(samlResponse, "base64").toString().replace("ana-4c1d9", "boss-00001")).toString(
    "base64",
  );

/** The same response unsigned: only the template filled in. */
export function unsignedResponse(idp: Idp, values: ResponseValues, edit: TemplateEdit = unchanged): string {
  const template = edit(idp.entitySetting.loginResponseTemplate?.context ?? "");
  return Buffer.from(SamlLib.replaceTagsByValue(template, values)).toString("base64");
}

const samlStatus = (name: string) => `urn:oasis:names:tc:SAML:2.0:status:${name}`;

/** An error an IdP answers a request with: its top-level status code and, if any, the second-level one. */
export interface IdpError {
  status: "Responder" | "Requester";
  detail?: string;
  message?: string;
}

/**
 * The IdP's answer without an assertion, with an error status (base64, as posted), as IdPs send
 * when the person cancels or cannot be signed in; signed as a whole by `signer` when given (most
 * IdPs do not sign errors).
 */
export function errorResponse(
  idp: Idp,
  error: IdpError,
  {
    inResponseTo,
    acsUrl,
    signer,
    issuer = idp.entityMeta.getEntityID(),
  }: { inResponseTo?: string; acsUrl: string; signer?: SamlKeyPair; issuer?: string },
): string {
  const attribute = (name: string, value: string | undefined) => (value ? ` ${name}="${value}"` : "");
  const detail = error.detail ? `<samlp:StatusCode Value="${samlStatus(error.detail)}"/>` : "";
  const message = error.message ? `<samlp:StatusMessage>${error.message}</samlp:StatusMessage>` : "";
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="_${randomBytes(16).toString("hex")}" Version="2.0" IssueInstant="${new Date().toISOString()}"` +
    `${attribute("Destination", acsUrl)}${attribute("InResponseTo", inResponseTo)}>` +
    `<saml:Issuer>${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${samlStatus(error.status)}">${detail}</samlp:StatusCode>${message}</samlp:Status>` +
    `</samlp:Response>`;
  if (!signer) return Buffer.from(xml).toString("base64");
  return SamlLib.constructSAMLSignature({
    rawSamlMessage: xml,
    isMessageSigned: true,
    privateKey: signer.privateKeyPem,
    // samlify takes the certificate's body, as metadata carries it.
    signingCert: pemBody(signer.certificatePem),
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    isBase64Output: true,
    signatureConfig: {
      prefix: "ds",
      location: { reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']", action: "after" },
    },
  });
}
