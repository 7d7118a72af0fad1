import { promisify } from "node:util";
import { XMLSerializer } from "@xmldom/xmldom";
import { decrypt as decryptXml } from "xml-encryption";
import { samlResponseXml } from "../../../common/limits.ts";
import { SamlError } from "./errors.ts";
import { encryptionAlgorithms, namespaces } from "./saml-names.ts";
import { MalformedXml, parseXml } from "./xml.ts";

const decrypt = promisify(decryptXml);

const acceptedAlgorithms: ReadonlySet<string> = new Set([
  ...encryptionAlgorithms.content,
  ...encryptionAlgorithms.keyTransport,
]);

/** The elements among `parent`'s children named `localName` in any namespace, as node-saml finds them. */
const childrenNamed = (parent: Element, localName: string) =>
  Array.from(parent.childNodes).filter(
    (node): node is Element => node.nodeType === 1 && (node as Element).localName === localName,
  );

const notDecrypted = (why: string) => new SamlError("samlDecryptionFailed", `the encrypted assertion ${why}`);

/**
 * Whether the response's assertion is encrypted. An encrypted one is checked before node-saml
 * decrypts it again: every algorithm it names must be one Vrata publishes (xml-encryption would
 * decrypt RSA PKCS #1 v1.5 and Triple DES too, and node-saml does not let it refuse them), it must
 * decrypt with Vrata's encryption key, and the plaintext must be one assertion that Vrata's own
 * parser reads. Anyone can encrypt to the published key, and node-saml parses whatever the plaintext
 * is before it looks for a signature.
 */
export async function checkEncryptedAssertion(response: Element, decryptionKeyPem: string): Promise<boolean> {
  const [encrypted, ...others] = childrenNamed(response, "EncryptedAssertion");
  if (!encrypted) return false;
  if (others.length > 0 || encrypted.namespaceURI !== namespaces.assertion) {
    throw new SamlError("samlResponseMalformed", "the response has no single SAML EncryptedAssertion");
  }
  // xml-encryption picks the methods it uses by local name anywhere below: all of them must pass.
  for (const method of Array.from(encrypted.getElementsByTagNameNS("*", "EncryptionMethod"))) {
    const algorithm = method.getAttribute("Algorithm") ?? "";
    if (!acceptedAlgorithms.has(algorithm)) throw notDecrypted(`uses ${algorithm || "no algorithm"}`);
  }
  let plaintext: string;
  try {
    plaintext = await decrypt(new XMLSerializer().serializeToString(encrypted), { key: decryptionKeyPem });
  } catch (error) {
    throw notDecrypted(`does not decrypt with the encryption key: ${(error as Error).message}`);
  }
  let assertion: Element;
  try {
    assertion = parseXml(plaintext, samlResponseXml).documentElement;
  } catch (error) {
    if (!(error instanceof MalformedXml)) throw error;
    throw notDecrypted(`holds no well-formed XML: ${error.message}`);
  }
  if (assertion.namespaceURI !== namespaces.assertion || assertion.localName !== "Assertion") {
    throw notDecrypted("holds no SAML Assertion");
  }
  return true;
}
