// The SAML 2.0 names (namespaces, bindings, NameID formats) Vrata reads and writes.

export const namespaces = {
  metadata: "urn:oasis:names:tc:SAML:2.0:metadata",
  metadataUi: "urn:oasis:names:tc:SAML:metadata:ui",
  protocol: "urn:oasis:names:tc:SAML:2.0:protocol",
  assertion: "urn:oasis:names:tc:SAML:2.0:assertion",
  signature: "http://www.w3.org/2000/09/xmldsig#",
} as const;

export const bindings = {
  redirect: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect",
  post: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
} as const;

/**
 * The XML Encryption algorithms Vrata decrypts assertions with, in the order it prefers them: AES-GCM
 * and AES-CBC for the content, RSA-OAEP for the key. RSA PKCS #1 v1.5 key transport (open to
 * Bleichenbacher's attack) and Triple DES are refused.
 */
export const encryptionAlgorithms = {
  content: [
    "http://www.w3.org/2009/xmlenc11#aes256-gcm",
    "http://www.w3.org/2009/xmlenc11#aes128-gcm",
    "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
    "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
  ],
  keyTransport: ["http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"],
} as const;

export const statusSuccess = "urn:oasis:names:tc:SAML:2.0:status:Success";

/**
 * Second-level status codes by which an IdP says it did not sign the person in because of the person
 * (they cancelled, failed to authenticate, or are not allowed) rather than because of a fault. IdPs
 * answer a cancel with AuthnFailed or RequestDenied; SAML has no status of its own for it.
 */
export const personRefusedStatuses: ReadonlySet<string> = new Set(
  ["AuthnFailed", "NoPassive", "RequestDenied", "NoAuthnContext", "UnknownPrincipal"].map(
    (name) => `urn:oasis:names:tc:SAML:2.0:status:${name}`,
  ),
);

export const nameIdFormats = {
  unspecified: "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
  emailAddress: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  x509SubjectName: "urn:oasis:names:tc:SAML:1.1:nameid-format:X509SubjectName",
  windowsDomainQualifiedName: "urn:oasis:names:tc:SAML:1.1:nameid-format:WindowsDomainQualifiedName",
  kerberos: "urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos",
  entity: "urn:oasis:names:tc:SAML:2.0:nameid-format:entity",
  persistent: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  transient: "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
} as const;

/**
 * NameID formats that name the same person the same way at every sign-in, so the NameID can be the
 * credential. A transient NameID is new each time; an unspecified one promises nothing (it is
 * accepted only when the operator asks for it by name).
 */
export const stableNameIdFormats: ReadonlySet<string> = new Set([
  nameIdFormats.emailAddress,
  nameIdFormats.x509SubjectName,
  nameIdFormats.windowsDomainQualifiedName,
  nameIdFormats.kerberos,
  nameIdFormats.entity,
  nameIdFormats.persistent,
]);
