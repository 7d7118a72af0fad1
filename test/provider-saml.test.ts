import { createPublicKey, randomBytes, X509Certificate } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { promisify } from "node:util";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import * as samlify from "samlify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decrypt as decryptXml } from "xml-encryption";
import { samlClockToleranceMs, samlMetadata, samlResponseXml, type XmlLimits } from "../src/common/limits.ts";
import { registerErrorHandlers } from "../src/server/http/errors.ts";
import { assertionUsesIn, type RecordAssertionUse } from "../src/server/providers/saml/assertion-uses.ts";
import { SamlError, type SamlErrorCode } from "../src/server/providers/saml/errors.ts";
import { IdpMetadataError, parseIdpMetadata } from "../src/server/providers/saml/idp-metadata.ts";
import { samlMetadataPlugin } from "../src/server/providers/saml/routes.ts";
import { pemBody } from "../src/server/providers/saml/pem.ts";
import { namespaces, nameIdFormats } from "../src/server/providers/saml/saml-names.ts";
import {
  samlProviderSettingsSchema,
  type SamlProviderSettings,
} from "../src/server/providers/saml/settings.ts";
import {
  createSamlKeyPair,
  loadSamlSpCredentials,
  type SamlKeyPair,
  type SamlSpCredentials,
} from "../src/server/providers/saml/sp-credentials.ts";
import { samlMetadataMediaType, spMetadata } from "../src/server/providers/saml/sp-metadata.ts";
import {
  openSamlUpstream,
  samlComplete,
  samlStart,
  type SamlStart,
  type SamlUpstream,
} from "../src/server/providers/saml/upstream.ts";
import { checkXmlShape, childElements, MalformedXml, parseXml } from "../src/server/providers/saml/xml.ts";
import { deriveInstanceSecrets, type InstanceSecrets } from "../src/server/secrets/instance-secrets.ts";
import { WrongSecretKey } from "../src/server/secrets/sealing.ts";
import type { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines as serverStores } from "./support/postgres.ts";
import {
  attributeNames,
  encrypting,
  encryptingTo,
  encryptionMethods,
  identityProvider,
  idpEntityId,
  idpReceives,
  responseValues,
  signedResponse,
  unsignedResponse,
  xmlenc,
  type Idp,
  type IdpEncryption,
  type ResponseValues,
  type Sp,
  type TemplateEdit,
} from "./support/saml-idp.ts";
import {
  atIdp,
  postForm,
  startSamlServer,
  type SamlProvider,
  type SamlServer,
} from "./support/saml-server.ts";
import { storeEngines, type TestStore } from "./support/stores.ts";

// Issue 16: Vrata as a SAML service provider, against a real IdP on loopback: samlify in IdP mode,
// with keys of its own (test/support/saml-idp.ts).

const issuer = "https://vrata.test";

const silentLog = { info: () => undefined, warn: () => undefined };

/** The response with `count` more elements side by side in its assertion's attribute statement. */
function withSiblings(samlResponse: string, count: number): string {
  const xml = Buffer.from(samlResponse, "base64").toString();
  const statement = "<saml:AttributeStatement>";
  expect(xml).toContain(statement);
  return Buffer.from(xml.replace(statement, statement + "<saml:AttributeValue/>".repeat(count))).toString(
    "base64",
  );
}

/**
 * An IdP's template whose assertion's subject confirmation names no request: only the response around
 * the assertion, which anyone can change when the assertion alone is signed, says which it answers.
 */
const withoutRequestInAssertion = (template: string) =>
  template.replace(' InResponseTo="{InResponseTo}"/>', "/>");

/** The response changed to answer the request `to` instead of `from`, as an attacker can. */
function answeringAnother(samlResponse: string, from: string, to: string): string {
  const xml = Buffer.from(samlResponse, "base64").toString();
  const answering = (requestId: string) => `InResponseTo="${requestId}"`;
  expect(xml.split(answering(from))).toHaveLength(2);
  return Buffer.from(xml.replace(answering(from), answering(to))).toString("base64");
}

/** How many XML documents Vrata and the SAML libraries parse (all use xmldom) while `run` runs. */
async function parsesDuring<T>(run: () => Promise<T>): Promise<{ result: T; parses: number }> {
  const parse = vi.spyOn(DOMParser.prototype, "parseFromString");
  try {
    const result = await run();
    return { result, parses: parse.mock.calls.length };
  } finally {
    parse.mockRestore();
  }
}

describe("XML held to its limits before it is parsed", () => {
  const limits: XmlLimits = { maxBytes: 1000, maxElements: 10, maxDepth: 3, maxSiblings: 4 };
  const refusal = (text: string) => {
    try {
      checkXmlShape(text, limits);
    } catch (error) {
      expect(error).toBeInstanceOf(MalformedXml);
      return (error as Error).message;
    }
    return "accepted";
  };

  it("counts elements, depth, children and bytes up to each limit, and refuses one more", () => {
    expect(refusal("<a><b/><b/><b/><b/></a>")).toBe("accepted");
    expect(refusal("<a><b/><b/><b/><b/><b/></a>")).toMatch(/more than 4 children/);
    expect(refusal("<a><b><c/></b><b><c>x</c></b></a>")).toBe("accepted");
    expect(refusal("<a><b><c><d/></c></b></a>")).toMatch(/more than 3 elements deep/);
    const ten = "<a><b><c/><c/></b><b><c/><c/></b><b><c/><c/></b></a>";
    expect(refusal(ten)).toBe("accepted");
    expect(refusal(ten.replace("<c/>", "<c/><c/>"))).toMatch(/more than 10 elements/);
    expect(refusal(`<a>${"x".repeat(993)}</a>`)).toBe("accepted");
    // Bytes, not characters: é takes two.
    expect(refusal(`<a>${"é".repeat(497)}</a>`)).toMatch(/larger than 1000 bytes/);
    expect(parseXml(ten, limits).documentElement.localName).toBe("a");
    expect(() => parseXml(ten.replace("<c/>", "<c/><c/>"), limits)).toThrow(MalformedXml);
  });

  it("counts comments, processing instructions and CDATA as children, and nothing inside them or in quotes", () => {
    expect(refusal("<a><!--1--><?p x?><![CDATA[y]]><b/><b/></a>")).toMatch(/more than 4 children/);
    const hidden = `<?xml version="1.0"?><a x="1>2" y='/>'><!--<b><b><b><b>--><![CDATA[<b><b><b>]]></a>`;
    expect(refusal(hidden)).toBe("accepted");
    expect(parseXml(hidden, limits).documentElement.childNodes.length).toBe(2);
  });

  it("refuses a document type declaration and markup that does not end", () => {
    expect(refusal('<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>')).toMatch(/document type declaration/);
    expect(refusal("<a><!ENTITY e 'x'></a>")).toMatch(/document type declaration/);
    expect(refusal('<a><b x="1>')).toMatch(/ends inside a tag/);
    expect(refusal("<a><!-- b")).toMatch(/ends inside a tag/);
    expect(refusal("</a>")).toMatch(/closes no element/);
  });
});

describe("SAML upstream against a samlify IdP", () => {
  let store: TestStore;
  let credentials: SamlSpCredentials;
  let idpKeys: SamlKeyPair;
  let otherKeys: SamlKeyPair;
  let idp: Idp;
  let idpMetadataXml: string;
  let metadataServer: http.Server;
  let metadataUrl: string;
  let ssoUrl: string;
  let serveMetadata: () => { status: number; body: string };
  let upstream: SamlUpstream;
  let sp: Sp;
  let secrets: InstanceSecrets;
  let recordAssertionUse: RecordAssertionUse;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-saml-"));

  const settings = (extra: Partial<SamlProviderSettings> = {}): SamlProviderSettings =>
    samlProviderSettingsSchema.parse({
      key: "eid",
      type: "saml",
      name: { en: "National eID", sl: "Nacionalna e-identiteta" },
      metadataUrl,
      attributes: {
        email: attributeNames.mail,
        givenName: attributeNames.givenName,
        fullName: attributeNames.displayName,
        username: attributeNames.uid,
      },
      ...extra,
    });

  const open = (providerSettings: SamlProviderSettings) =>
    openSamlUpstream(providerSettings, {
      issuer,
      credentials,
      serviceName: { en: "Vrata test", sl: "Vrata – preizkus" },
      recordAssertionUse,
      log: silentLog,
      configDir: tmp,
    });

  beforeAll(async () => {
    const engine = storeEngines[0];
    if (!engine) throw new Error("no store engine");
    store = await engine.open();
    secrets = deriveInstanceSecrets(randomBytes(32));
    credentials = await loadSamlSpCredentials(store.db, secrets.sealer, "Vrata test");
    recordAssertionUse = assertionUsesIn(store.db, secrets.samlAssertions);
    [idpKeys, otherKeys] = await Promise.all([
      createSamlKeyPair("Test IdP", "signing"),
      createSamlKeyPair("Intruder", "encryption"),
    ]);

    serveMetadata = () => ({ status: 200, body: idpMetadataXml });
    metadataServer = http.createServer((request, response) => {
      const { status, body } = serveMetadata();
      response.writeHead(status, { "content-type": "application/samlmetadata+xml" }).end(body);
    });
    await new Promise<void>((resolve) => metadataServer.listen(0, "127.0.0.1", resolve));
    const { port } = metadataServer.address() as AddressInfo;
    metadataUrl = `http://127.0.0.1:${port}/metadata`;
    ssoUrl = `http://127.0.0.1:${port}/sso`;
    idp = identityProvider(idpKeys, ssoUrl);
    idpMetadataXml = idp.getMetadata();

    upstream = await open(settings());
    sp = samlify.ServiceProvider({ metadata: spMetadata(upstream) });
  });

  afterAll(async () => {
    upstream.close();
    await new Promise((resolve) => metadataServer.close(resolve));
    await store.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Starts a sign-in, lets the IdP read the request, and has it answer with `values` changed. */
  async function signIn(
    options: {
      change?: (values: ResponseValues) => void;
      by?: Idp;
      unsigned?: boolean;
      to?: SamlUpstream;
      spOverride?: Sp;
      /** The IdP encrypts the assertion before it signs the response (with a response signature). */
      encryptThenSign?: boolean;
      /** Changes the response's template before it is filled in and signed. */
      edit?: (template: string) => string;
    } = {},
  ) {
    const target = options.to ?? upstream;
    const start = await samlStart(target);
    const request = await idpReceives(idp, options.spOverride ?? sp, start);
    const values = responseValues(request.id, target.acsUrl, target.entityId);
    options.change?.(values);
    const samlResponse = options.unsigned
      ? unsignedResponse(idp, values, options.edit)
      : await signedResponse(options.by ?? idp, options.spOverride ?? sp, request, values, {
          encryptThenSign: options.encryptThenSign ?? false,
          ...(options.edit ? { edit: options.edit } : {}),
        });
    return { start, request, values, samlResponse };
  }

  const complete = (start: SamlStart, samlResponse: unknown, target = upstream) =>
    samlComplete(target, {
      samlResponse,
      relayState: start.relayState,
      expected: { requestId: start.requestId, relayState: start.relayState },
    });

  async function refusal(promise: Promise<unknown>): Promise<SamlErrorCode> {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(SamlError);
      return (error as SamlError).code;
    }
    throw new Error("the response was accepted");
  }

  it("sends a signed AuthnRequest the IdP verifies, bound to the flow", async () => {
    const start = await samlStart(upstream, { relayState: "flow-state-1" });
    const url = new URL(start.url);
    expect(url.origin + url.pathname).toBe(
      new URL(idp.entityMeta.getSingleSignOnService("redirect") as string).href,
    );
    expect(url.searchParams.get("RelayState")).toBe("flow-state-1");
    expect(url.searchParams.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    const request = await idpReceives(idp, sp, start);
    expect(request.id).toBe(start.requestId);
    expect(request.issuer).toBe(upstream.entityId);
    expect(request.acsUrl).toBe(`${issuer}/auth/provider/eid`);
    expect(request.nameIdFormat).toBe(nameIdFormats.persistent);

    await expect(samlStart(upstream, { relayState: "x".repeat(81) })).rejects.toThrow(RangeError);

    // The signature covers the RelayState: the IdP refuses a request whose RelayState was changed.
    const tampered = {
      ...start,
      url: start.url.replace("RelayState=flow-state-1", "RelayState=flow-state-2"),
    };
    await expect(idpReceives(idp, sp, tampered)).rejects.toThrow(/SIGNATURE/);
  });

  it("accepts the IdP's signed response and maps its attributes", async () => {
    const { start, samlResponse } = await signIn();
    const result = await complete(start, samlResponse);
    expect(result).toEqual({
      subject: "ana-4c1d9",
      nameId: { value: "ana-4c1d9", format: nameIdFormats.persistent },
      identity: {
        email: "ana.novak@example.si",
        givenName: "Ana",
        fullName: "Ana Novak",
        username: "anovak",
      },
      emailVerified: false,
    });
  });

  /** Vrata as an IdP sees it, asking for the response to be signed as a whole and not its assertion. */
  const signingWholeResponses = () =>
    samlify.ServiceProvider({
      metadata: spMetadata(upstream).replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"'),
      wantMessageSigned: true,
    });

  it("accepts a response signed as a whole when the assertion is not", async () => {
    const { start, samlResponse } = await signIn({ spOverride: signingWholeResponses() });
    expect(Buffer.from(samlResponse, "base64").toString()).not.toMatch(
      /<saml:Assertion[^>]*>.*<ds:Signature/,
    );
    expect((await complete(start, samlResponse)).subject).toBe("ana-4c1d9");
  });

  /** An IdP with the test IdP's signing key that encrypts its assertions as `encryption` says. */
  const encryptingIdp = (encryption: IdpEncryption, keys = idpKeys) =>
    identityProvider(keys, ssoUrl, idpEntityId, encryption);

  /** The assertion inside the response, decrypted with Vrata's key (to see what the IdP encrypted). */
  async function decryptedAssertion(samlResponse: string): Promise<Element> {
    const response = parseXml(Buffer.from(samlResponse, "base64").toString(), samlMetadata).documentElement;
    const [encrypted] = childElements(response, namespaces.assertion, "EncryptedAssertion");
    if (!encrypted) throw new Error("the assertion is not encrypted");
    const plaintext = await promisify(decryptXml)(new XMLSerializer().serializeToString(encrypted), {
      key: credentials.encryption.privateKeyPem,
    });
    return parseXml(plaintext, samlMetadata).documentElement;
  }

  const signatureOf = (element: Element) => childElements(element, namespaces.signature, "Signature");

  it("accepts a signed assertion encrypted to the published key, with each published content algorithm", async () => {
    for (const data of [xmlenc.aes256gcm, xmlenc.aes128gcm, xmlenc.aes256cbc, xmlenc.aes128cbc]) {
      const { start, samlResponse } = await signIn({ by: encryptingIdp(encrypting(data)) });
      expect(encryptionMethods(samlResponse)).toEqual([data, xmlenc.rsaOaep]);
      const xml = Buffer.from(samlResponse, "base64").toString();
      expect(xml).not.toContain("ana-4c1d9");
      // Only the assertion inside is signed.
      expect(signatureOf(parseXml(xml, samlMetadata).documentElement)).toEqual([]);
      expect(signatureOf(await decryptedAssertion(samlResponse))).toHaveLength(1);
      expect(await complete(start, samlResponse)).toMatchObject({
        subject: "ana-4c1d9",
        identity: { email: "ana.novak@example.si", username: "anovak" },
      });
    }
  });

  it("accepts a signed response whose encrypted assertion is not signed", async () => {
    const unsignedAssertions = samlify.ServiceProvider({
      metadata: spMetadata(upstream).replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"'),
      wantMessageSigned: true,
    });
    const { start, samlResponse } = await signIn({
      by: encryptingIdp(encrypting(xmlenc.aes256cbc)),
      spOverride: unsignedAssertions,
      encryptThenSign: true,
    });
    const response = parseXml(Buffer.from(samlResponse, "base64").toString(), samlMetadata).documentElement;
    expect(signatureOf(response)).toHaveLength(1);
    expect(signatureOf(await decryptedAssertion(samlResponse))).toEqual([]);
    expect((await complete(start, samlResponse)).subject).toBe("ana-4c1d9");
  });

  it("reads the status of a response whose assertion is encrypted", async () => {
    const { start, samlResponse } = await signIn({
      by: encryptingIdp(encrypting()),
      change: (values) => {
        values.StatusCode = "urn:oasis:names:tc:SAML:2.0:status:Responder";
      },
    });
    expect(encryptionMethods(samlResponse)).not.toEqual([]);
    expect(await refusal(complete(start, samlResponse))).toBe("samlIdpStatus");
  });

  it("refuses an encrypted assertion Vrata's key does not open, with one code whatever went wrong", async () => {
    const toAnotherKey = samlify.ServiceProvider({
      metadata: encryptingTo(spMetadata(upstream), otherKeys),
    });
    const forAnother = await signIn({ by: encryptingIdp(encrypting()), spOverride: toAnotherKey });
    expect(await refusal(complete(forAnother.start, forAnother.samlResponse))).toBe("samlDecryptionFailed");

    // RSA PKCS #1 v1.5 and Triple DES would decrypt: they are refused all the same.
    for (const encryption of [encrypting(xmlenc.aes128gcm, xmlenc.rsa15), encrypting(xmlenc.tripleDes)]) {
      const weak = await signIn({ by: encryptingIdp(encryption) });
      expect(encryptionMethods(weak.samlResponse)).toEqual([
        encryption.dataEncryptionAlgorithm,
        encryption.keyEncryptionAlgorithm,
      ]);
      expect(await refusal(complete(weak.start, weak.samlResponse))).toBe("samlDecryptionFailed");
    }

    // An altered AES-CBC ciphertext, and an assertion signed by another key, get the same answer: told
    // apart, they would say whether the altered ciphertext still decrypted to an assertion.
    const cbc = await signIn({ by: encryptingIdp(encrypting(xmlenc.aes256cbc)) });
    const altered = Buffer.from(cbc.samlResponse, "base64")
      .toString()
      .replace(
        /(<xenc:EncryptedData[\s\S]*?<xenc:CipherValue>)([^<]+)/,
        (_match, before: string, value: string) => {
          const bytes = Buffer.from(value, "base64");
          bytes[20] = (bytes[20] ?? 0) ^ 0x01;
          return before + bytes.toString("base64");
        },
      );
    expect(altered).not.toBe(Buffer.from(cbc.samlResponse, "base64").toString());
    expect(await refusal(complete(cbc.start, Buffer.from(altered).toString("base64")))).toBe(
      "samlDecryptionFailed",
    );
    const intruder = await signIn({ by: encryptingIdp(encrypting(), otherKeys) });
    expect(await refusal(complete(intruder.start, intruder.samlResponse))).toBe("samlDecryptionFailed");
  });

  it("does not let an encrypted assertion in another namespace past the checks", async () => {
    // node-saml finds an EncryptedAssertion by its local name alone, and would decrypt this one.
    const weak = await signIn({ by: encryptingIdp(encrypting(xmlenc.aes128gcm, xmlenc.rsa15)) });
    const renamed = Buffer.from(weak.samlResponse, "base64")
      .toString()
      .replace(/<(\/?)saml:EncryptedAssertion[^>]*>/g, (_match, end: string) =>
        end ? "</x:EncryptedAssertion>" : '<x:EncryptedAssertion xmlns:x="urn:example:not-saml">',
      );
    expect(renamed).toContain("<x:EncryptedAssertion");
    expect(await refusal(complete(weak.start, Buffer.from(renamed).toString("base64")))).toBe(
      "samlResponseMalformed",
    );
  });

  it("refuses an unsigned response", async () => {
    const { start, samlResponse } = await signIn({ unsigned: true });
    expect(await refusal(complete(start, samlResponse))).toBe("samlSignatureInvalid");
  });

  it("refuses a response signed by another key", async () => {
    const intruder = identityProvider(otherKeys, "http://127.0.0.1:1/sso");
    const { start, samlResponse } = await signIn({ by: intruder });
    expect(await refusal(complete(start, samlResponse))).toBe("samlSignatureInvalid");
  });

  it("refuses a signed response whose content was changed", async () => {
    const { start, samlResponse } = await signIn();
    const forged = Buffer.from(samlResponse, "base64").toString().replace("ana-4c1d9", "boss-00001");
    expect(await refusal(complete(start, Buffer.from(forged).toString("base64")))).toBe(
      "samlSignatureInvalid",
    );
  });

  it.each([
    [
      "an assertion meant for another service provider",
      "Audience",
      "https://other.example/sp",
      "samlAudienceMismatch",
    ],
    ["an assertion issued by another entity", "Issuer", "https://other-idp.example", "samlIssuerMismatch"],
    ["a response to another request", "InResponseTo", "_0123456789abcdef", "samlInResponseToMismatch"],
    [
      "a response sent to another address",
      "Destination",
      `${issuer}/auth/provider/other`,
      "samlDestinationMismatch",
    ],
    [
      "an assertion confirmed for another recipient",
      "SubjectRecipient",
      `${issuer}/auth/provider/other`,
      "samlRecipientMismatch",
    ],
    [
      "an assertion confirmed for a recipient written otherwise",
      "SubjectRecipient",
      `${issuer}/auth/provider/eid/`,
      "samlRecipientMismatch",
    ],
    [
      "an IdP's error status, even with an assertion",
      "StatusCode",
      "urn:oasis:names:tc:SAML:2.0:status:Responder",
      "samlIdpStatus",
    ],
  ])("refuses %s", async (_case, name, value, code) => {
    const { start, samlResponse } = await signIn({
      change: (values) => {
        values[name] = value;
      },
    });
    expect(await refusal(complete(start, samlResponse))).toBe(code);
  });

  it("requires a signed response to name Vrata's assertion consumer service as its Destination", async () => {
    const withoutDestination = (template: string) => template.replace(' Destination="{Destination}"', "");
    const signedWhole = await signIn({ spOverride: signingWholeResponses(), edit: withoutDestination });
    expect(Buffer.from(signedWhole.samlResponse, "base64").toString()).not.toContain("Destination=");
    expect(await refusal(complete(signedWhole.start, signedWhole.samlResponse))).toBe(
      "samlDestinationMismatch",
    );
    const elsewhere = await signIn({
      spOverride: signingWholeResponses(),
      change: (values) => {
        values.Destination = "https://other.example/acs";
      },
    });
    expect(await refusal(complete(elsewhere.start, elsewhere.samlResponse))).toBe("samlDestinationMismatch");
    // A response whose assertion alone is signed may go without: the assertion names its recipient.
    const assertionSigned = await signIn({ edit: withoutDestination });
    expect((await complete(assertionSigned.start, assertionSigned.samlResponse)).subject).toBe("ana-4c1d9");
  });

  it("requires every subject confirmation to be for Vrata's assertion consumer service and to end", async () => {
    // node-saml goes by the first confirmation within its time, and refuses one without an end only
    // when it reads that one.
    const endless = `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData Recipient="{SubjectRecipient}"/></saml:SubjectConfirmation>`;
    const otherConfirmation = `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:sender-vouches"><saml:SubjectConfirmationData NotOnOrAfter="{SubjectConfirmationDataNotOnOrAfter}" Recipient="https://other.example/acs"/></saml:SubjectConfirmation>`;
    const cases: [string, (template: string) => string, SamlErrorCode][] = [
      [
        "no Recipient",
        (template) => template.replace(' Recipient="{SubjectRecipient}"', ""),
        "samlRecipientMismatch",
      ],
      [
        "another confirmation without an end",
        (template) => template.replace("</saml:Subject>", `${endless}</saml:Subject>`),
        "samlResponseInvalid",
      ],
      [
        "another confirmation for another recipient",
        (template) => template.replace("</saml:Subject>", `${otherConfirmation}</saml:Subject>`),
        "samlRecipientMismatch",
      ],
      [
        "no bearer",
        (template) => template.replace(":cm:bearer", ":cm:sender-vouches"),
        "samlRecipientMismatch",
      ],
    ];
    const template = idp.entitySetting.loginResponseTemplate?.context ?? "";
    for (const [name, edit, code] of cases) {
      expect(edit(template), name).not.toBe(template);
      const { start, samlResponse } = await signIn({ edit });
      expect(await refusal(complete(start, samlResponse)), name).toBe(code);
    }
  });

  it("accepts an assertion once, also when only the unsigned response around it names the request", async () => {
    const first = await signIn({ edit: withoutRequestInAssertion });
    expect((await complete(first.start, first.samlResponse)).subject).toBe("ana-4c1d9");
    expect(await refusal(complete(first.start, first.samlResponse))).toBe("samlAssertionReplayed");

    const other = await samlStart(upstream);
    const moved = answeringAnother(first.samlResponse, first.start.requestId, other.requestId);
    expect(await refusal(complete(other, moved))).toBe("samlAssertionReplayed");

    // Kept under a keyed hash of the IdP and the ID, until its confirmation ends (with the tolerance).
    const rows = await store.db.selectFrom("saml_assertions").selectAll().execute();
    expect(rows).toContainEqual({
      id: secrets.samlAssertions(`${idpEntityId}\n${first.values.AssertionID ?? ""}`),
      expires_at: Date.parse(first.values.SubjectConfirmationDataNotOnOrAfter ?? "") + samlClockToleranceMs,
    });
    expect(JSON.stringify(rows)).not.toContain(first.values.AssertionID);

    // node-saml refuses a response that answers no request (one the IdP started itself).
    const unsolicited = await signIn({
      edit: (template) => template.replaceAll(' InResponseTo="{InResponseTo}"', ""),
    });
    expect(await refusal(complete(unsolicited.start, unsolicited.samlResponse))).toBe(
      "samlInResponseToMismatch",
    );
  });

  it("refuses an expired assertion and one not valid yet, beyond 30 s of clock tolerance", async () => {
    const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
    const expired = await signIn({
      change: (values) => {
        values.IssueInstant = at(-10 * 60_000);
        values.ConditionsNotBefore = at(-10 * 60_000);
        values.ConditionsNotOnOrAfter = at(-60_000);
        values.SubjectConfirmationDataNotOnOrAfter = at(-60_000);
      },
    });
    expect(await refusal(complete(expired.start, expired.samlResponse))).toBe("samlExpired");

    const early = await signIn({
      change: (values) => {
        values.ConditionsNotBefore = at(5 * 60_000);
      },
    });
    expect(await refusal(complete(early.start, early.samlResponse))).toBe("samlNotYetValid");

    const withinTolerance = await signIn({
      change: (values) => {
        values.ConditionsNotBefore = at(20_000);
        values.ConditionsNotOnOrAfter = at(-10_000);
        values.SubjectConfirmationDataNotOnOrAfter = at(-10_000);
      },
    });
    expect((await complete(withinTolerance.start, withinTolerance.samlResponse)).subject).toBe("ana-4c1d9");
  });

  it("refuses a valid response replayed into another flow, and a RelayState other than the flow's", async () => {
    // A valid response to one flow's request, replayed into another flow.
    const first = await signIn();
    const other = await samlStart(upstream);
    expect(await refusal(complete({ ...first.start, requestId: other.requestId }, first.samlResponse))).toBe(
      "samlInResponseToMismatch",
    );
    const wrongState = samlComplete(upstream, {
      samlResponse: first.samlResponse,
      relayState: "someone-else",
      expected: { requestId: first.start.requestId, relayState: first.start.relayState },
    });
    expect(await refusal(wrongState)).toBe("samlRelayStateMismatch");
  });

  it("refuses a transient NameID, unless an attribute identifies people", async () => {
    const transient = (values: ResponseValues) => {
      values.NameIDFormat = nameIdFormats.transient;
      values.NameID = `_${randomBytes(8).toString("hex")}`;
    };
    const { start, samlResponse } = await signIn({ change: transient });
    expect(await refusal(complete(start, samlResponse))).toBe("samlTransientNameId");

    const unspecified = await signIn({
      change: (values) => {
        values.NameIDFormat = nameIdFormats.unspecified;
      },
    });
    expect(await refusal(complete(unspecified.start, unspecified.samlResponse))).toBe("samlNameIdFormat");

    const byAttribute = await open(settings({ identifyBy: { attribute: attributeNames.employeeNumber } }));
    try {
      const spByAttribute = samlify.ServiceProvider({ metadata: spMetadata(byAttribute) });
      const accepted = await signIn({ change: transient, to: byAttribute, spOverride: spByAttribute });
      const result = await complete(accepted.start, accepted.samlResponse, byAttribute);
      expect(result.subject).toBe("E-1042");
      expect(result.identity.username).toBe("anovak");

      const missing = await signIn({
        change: (values) => {
          transient(values);
          values.attrEmployeeNumber = "   ";
        },
        to: byAttribute,
        spOverride: spByAttribute,
      });
      expect(await refusal(complete(missing.start, missing.samlResponse, byAttribute))).toBe(
        "samlSubjectMissing",
      );
    } finally {
      byAttribute.close();
    }
  });

  it("answers malformed input with a stable code and no other error", async () => {
    const start = await samlStart(upstream);
    const base64 = (text: string) => Buffer.from(text).toString("base64");
    const inputs: unknown[] = [
      undefined,
      42,
      ["a"],
      "",
      "not base64 at all!",
      base64("<samlp:Response"),
      base64("plain text"),
      base64('<!DOCTYPE r [<!ENTITY a "aaaa">]><r>&a;</r>'),
      base64('<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"/>'),
      base64('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>'),
      base64(
        '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:Response>',
      ),
      // Whitespace then a stray character: a pattern that backtracks takes minutes over this.
      `A${" ".repeat(100_000)}!`,
    ];
    for (const input of inputs) {
      const code = await refusal(complete(start, input));
      expect([
        "samlResponseMalformed",
        "samlIdpStatus",
        "samlInResponseToMismatch",
        "samlSignatureInvalid",
        "samlResponseInvalid",
      ]).toContain(code);
    }
    expect(await refusal(complete(start, "not base64 at all!"))).toBe("samlResponseMalformed");
    expect(await refusal(complete(start, base64("<samlp:Response")))).toBe("samlResponseMalformed");
    const relayStates: unknown[] = [undefined, 7, ["x"]];
    for (const relayState of relayStates) {
      const wrong = samlComplete(upstream, {
        samlResponse: "",
        relayState,
        expected: { requestId: start.requestId, relayState: start.relayState },
      });
      expect(await refusal(wrong)).toBe("samlRelayStateMismatch");
    }
  });

  it("refuses a response of thousands of sibling elements before parsing it", async () => {
    const { start, samlResponse } = await signIn();
    for (const count of [2000, 4000, 8000]) {
      expect(count).toBeGreaterThan(samlResponseXml.maxSiblings);
      const { result, parses } = await parsesDuring(() =>
        refusal(complete(start, withSiblings(samlResponse, count))),
      );
      expect(result).toBe("samlResponseMalformed");
      expect(parses).toBe(0);
    }
    const deep = Buffer.from(
      Buffer.from(samlResponse, "base64")
        .toString()
        .replace(
          "</saml:Issuer>",
          `</saml:Issuer>${"<saml:Advice>".repeat(40)}${"</saml:Advice>".repeat(40)}`,
        ),
    ).toString("base64");
    expect(await refusal(complete(start, deep))).toBe("samlResponseMalformed");
  });

  it("accepts a real response with several certificates and hundreds of attribute values", async () => {
    const groups = Array.from(
      { length: 600 },
      (_, index) => `<saml:AttributeValue xsi:type="xs:string">group-${index}</saml:AttributeValue>`,
    ).join("");
    const { start, samlResponse } = await signIn({
      edit: (template) =>
        template.replace(
          "</saml:AttributeStatement>",
          `<saml:Attribute Name="groups">${groups}</saml:Attribute></saml:AttributeStatement>`,
        ),
    });
    // KeyInfo is outside what is signed: an IdP may send its whole chain there.
    const certificate = /<ds:X509Certificate>[^<]+<\/ds:X509Certificate>/.exec(
      Buffer.from(samlResponse, "base64").toString(),
    )?.[0];
    expect(certificate).toBeDefined();
    const withChain = Buffer.from(
      Buffer.from(samlResponse, "base64")
        .toString()
        .replace("</ds:X509Data>", `${(certificate ?? "").repeat(3)}</ds:X509Data>`),
    ).toString("base64");
    expect(Buffer.from(withChain, "base64").length).toBeGreaterThan(40_000);
    const { result, parses } = await parsesDuring(() => complete(start, withChain));
    expect(result.subject).toBe("ana-4c1d9");
    expect(parses).toBeGreaterThan(0);
  });

  it("publishes SP metadata that samlify reads, with both certificates, the ACS URL and both languages", () => {
    const xml = spMetadata(upstream);
    const meta = samlify.ServiceProvider({ metadata: xml }).entityMeta;
    expect(meta.getEntityID()).toBe(`${issuer}/samlMetadata/eid`);
    expect(meta.getAssertionConsumerService("post")).toBe(`${issuer}/auth/provider/eid`);
    expect(meta.getX509Certificate("signing")).toBe(pemBody(credentials.signing.certificatePem));
    expect(meta.getX509Certificate("encryption")).toBe(pemBody(credentials.encryption.certificatePem));
    expect(credentials.encryption.certificatePem).not.toBe(credentials.signing.certificatePem);
    expect(meta.isAuthnRequestSigned()).toBe(true);
    expect(meta.isWantAssertionsSigned()).toBe(true);
    expect([meta.getNameIDFormat()].flat()).toEqual([nameIdFormats.persistent]);

    const document = parseXml(xml, samlMetadata);
    const md = "urn:oasis:names:tc:SAML:2.0:metadata";
    const keys = Array.from(document.getElementsByTagNameNS(md, "KeyDescriptor")).map((key) => [
      key.getAttribute("use"),
      childElements(key, md, "EncryptionMethod").map((method) => method.getAttribute("Algorithm")),
    ]);
    // What Vrata decrypts, AES-GCM first; never RSA PKCS #1 v1.5 or Triple DES.
    expect(keys).toEqual([
      ["signing", []],
      [
        "encryption",
        [xmlenc.aes256gcm, xmlenc.aes128gcm, xmlenc.aes256cbc, xmlenc.aes128cbc, xmlenc.rsaOaep],
      ],
    ]);
    const names = Array.from(document.getElementsByTagNameNS(md, "ServiceName")).map((element) => [
      element.getAttribute("xml:lang"),
      element.textContent,
    ]);
    expect(names).toEqual([
      ["en", "Vrata test"],
      ["sl", "Vrata – preizkus"],
    ]);
    const requested = Array.from(document.getElementsByTagNameNS(md, "RequestedAttribute")).map((element) =>
      element.getAttribute("Name"),
    );
    expect(requested.toSorted()).toEqual(
      [
        attributeNames.mail,
        attributeNames.givenName,
        attributeNames.displayName,
        attributeNames.uid,
      ].toSorted(),
    );
  });

  it("serves the SP metadata at /samlMetadata/{key} and under /api; other keys are not found", async () => {
    const app = Fastify();
    registerErrorHandlers(app, () => Promise.resolve("<!doctype html>"));
    await app.register(samlMetadataPlugin, { lookup: (key) => (key === "eid" ? upstream : undefined) });
    try {
      for (const url of ["/samlMetadata/eid", "/api/samlMetadata/eid"]) {
        const response = await app.inject({ url });
        expect(response.statusCode).toBe(200);
        expect(response.headers["content-type"]).toContain(samlMetadataMediaType);
        expect(response.body).toBe(spMetadata(upstream));
      }
      const missing = await app.inject({ url: "/api/samlMetadata/nope" });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: "notFound" });
    } finally {
      await app.close();
    }
  });

  it("reads IdP metadata from a file, and keeps the last good copy of a URL's", async () => {
    fs.writeFileSync(path.join(tmp, "idp.xml"), idpMetadataXml);
    const { result: fromFile, parses } = await parsesDuring(() =>
      open(settings({ metadataUrl: undefined, metadataFile: "idp.xml" })),
    );
    expect(fromFile.idp()?.entityId).toBe(idpEntityId);
    // Read in a thread of its own (a federation's takes seconds): this one parsed nothing.
    expect(parses).toBe(0);
    fromFile.close();
    await expect(open(settings({ metadataUrl: undefined, metadataFile: "missing.xml" }))).rejects.toThrow(
      IdpMetadataError,
    );

    // Down at start: unavailable, then loaded once the IdP answers.
    serveMetadata = () => ({ status: 503, body: "" });
    const late = await openSamlUpstream(settings(), {
      issuer,
      credentials,
      serviceName: { en: "Vrata", sl: "Vrata" },
      recordAssertionUse,
      log: silentLog,
      retryMs: 20,
      refreshMs: 20,
    });
    try {
      expect(late.idp()).toBeUndefined();
      expect(await refusal(samlStart(late))).toBe("samlIdpUnavailable");
      serveMetadata = () => ({ status: 200, body: idpMetadataXml });
      // Each reading starts a thread: on a busy machine that takes a while.
      await expect.poll(() => late.idp()?.entityId, { timeout: 20_000 }).toBe(idpEntityId);
      // Down again, or broken: the last good copy stays.
      serveMetadata = () => ({ status: 200, body: "<oops" });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(late.idp()?.entityId).toBe(idpEntityId);
      expect((await samlStart(late)).url).toContain("SAMLRequest=");
    } finally {
      late.close();
      serveMetadata = () => ({ status: 200, body: idpMetadataXml });
    }
  });
});

describe("SAML provider settings and metadata", () => {
  const base = {
    key: "eid",
    type: "saml",
    name: { en: "eID", sl: "eID" },
    metadataUrl: "https://idp.example/metadata",
  };

  it("fills the defaults and refuses what cannot work", () => {
    expect(samlProviderSettingsSchema.parse(base)).toMatchObject({ identifyBy: "nameId", attributes: {} });
    const refused = [
      { ...base, metadataFile: "idp.xml" },
      { ...base, metadataUrl: undefined },
      { ...base, metadataUrl: "http://idp.example/metadata" },
      { ...base, nameIdFormat: nameIdFormats.transient },
      { ...base, key: "no/slash" },
      { ...base, attributes: { phone: "x" } },
      { ...base, identifyBy: { attribute: "" } },
    ];
    for (const settings of refused)
      expect(samlProviderSettingsSchema.safeParse(settings).success).toBe(false);
    expect(
      samlProviderSettingsSchema.safeParse({ ...base, metadataUrl: "http://localhost:8081/metadata" })
        .success,
    ).toBe(true);
    expect(
      samlProviderSettingsSchema.safeParse({
        ...base,
        identifyBy: { attribute: "uid" },
        nameIdFormat: nameIdFormats.transient,
      }).success,
    ).toBe(true);
  });

  it("picks the IdP out of a federation's metadata and refuses expired or unusable metadata", async () => {
    const keys = await createSamlKeyPair("Federation IdP", "signing");
    const entity = (entityID: string, validUntil = "") =>
      samlify
        .IdentityProvider({
          entityID,
          signingCert: keys.certificatePem,
          singleSignOnService: [
            {
              Binding: samlify.Constants.namespace.binding.redirect,
              Location: `https://${new URL(entityID).host}/sso`,
            },
          ],
        })
        .getMetadata()
        .replace(/<\?xml[^>]*\?>/, "")
        .replace("<EntityDescriptor", `<EntityDescriptor${validUntil}`);
    const federation = `<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${entity("https://a.example/idp")}${entity("https://b.example/idp")}</EntitiesDescriptor>`;
    expect(parseIdpMetadata(federation, "https://b.example/idp").ssoRedirectUrl).toBe(
      "https://b.example/sso",
    );
    expect(() => parseIdpMetadata(federation)).toThrow(/several IdPs/);
    expect(() => parseIdpMetadata(federation, "https://c.example/idp")).toThrow(IdpMetadataError);
    expect(() =>
      parseIdpMetadata(entity("https://a.example/idp", ' validUntil="2001-01-01T00:00:00Z"')),
    ).toThrow(/expired/);
    expect(() => parseIdpMetadata("<nope/>")).toThrow(IdpMetadataError);
    const md = 'xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"';
    expect(() =>
      parseIdpMetadata(
        `<md:EntitiesDescriptor ${md}>${"<md:Extensions/>".repeat(100_001)}</md:EntitiesDescriptor>`,
      ),
    ).toThrow(/more than 100000 children/);
    expect(() =>
      parseIdpMetadata(
        `<md:EntityDescriptor ${md}>${"<x>".repeat(64)}${"</x>".repeat(64)}</md:EntityDescriptor>`,
      ),
    ).toThrow(/more than 64 elements deep/);
    expect(() =>
      parseIdpMetadata(
        entity("https://a.example/idp").replace(/<ds:X509Certificate>[^<]*/, "<ds:X509Certificate>bad"),
      ),
    ).toThrow(/signing certificate/);
  });

  it("takes only the signing certificate of an IdP that publishes an encryption key too", async () => {
    const [signing, encryption] = await Promise.all([
      createSamlKeyPair("IdP", "signing"),
      createSamlKeyPair("IdP", "encryption"),
    ]);
    const xml = identityProvider(signing, "https://idp.example/sso", "https://idp.example/idp", {
      encryptCert: encryption.certificatePem,
    }).getMetadata();
    expect(xml).toContain('use="encryption"');
    const metadata = parseIdpMetadata(xml);
    expect(metadata.signingCertificates.map(pemBody)).toEqual([pemBody(signing.certificatePem)]);
    expect(metadata.ssoRedirectUrl).toBe("https://idp.example/sso");
  });
});

describe.each(storeEngines)("SAML SP key on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  const { sealer } = deriveInstanceSecrets(randomBytes(32));
  const settingKeys = { signing: "samlServiceProviderKey", encryption: "samlServiceProviderEncryptionKey" };

  it("is made once for signing and once for encryption, kept sealed, and opens only with the instance key", async () => {
    const [first, concurrent] = await Promise.all([
      loadSamlSpCredentials(store.db, sealer, "Vrata"),
      loadSamlSpCredentials(store.db, sealer, "Vrata"),
    ]);
    expect(concurrent).toEqual(first);
    expect(await loadSamlSpCredentials(store.db, sealer, "Renamed")).toEqual(first);
    expect(pemBody(first.encryption.privateKeyPem)).not.toBe(pemBody(first.signing.privateKeyPem));
    expect(new X509Certificate(first.encryption.certificatePem).publicKey.export({ format: "jwk" })).toEqual(
      createPublicKey(first.encryption.privateKeyPem).export({ format: "jwk" }),
    );
    const rows = await store.db.selectFrom("instance_settings").select(["key", "value"]).execute();
    for (const use of ["signing", "encryption"] as const) {
      const keyBody = pemBody(first[use].privateKeyPem);
      expect(
        rows.some((row) => row.value.includes(keyBody.slice(0, 64))),
        use,
      ).toBe(false);
      expect(rows.find((row) => row.key === settingKeys[use])?.value, use).toMatch(/^sealed:v1:/);
    }
    await expect(
      loadSamlSpCredentials(store.db, deriveInstanceSecrets(randomBytes(32)).sealer, "Vrata"),
    ).rejects.toThrow(WrongSecretKey);
  });

  it("gets its encryption key at the next start of an instance that has only the signing key", async () => {
    const before = await loadSamlSpCredentials(store.db, sealer, "Vrata");
    // As the store of an instance from before encrypted assertions.
    await store.db.deleteFrom("instance_settings").where("key", "=", settingKeys.encryption).execute();
    const after = await loadSamlSpCredentials(store.db, sealer, "Vrata");
    expect(after.signing).toEqual(before.signing);
    expect(pemBody(after.encryption.privateKeyPem)).not.toBe(pemBody(before.encryption.privateKeyPem));
    expect(await loadSamlSpCredentials(store.db, sealer, "Vrata")).toEqual(after);
  });
});

describe.each(serverStores)("signing in through a SAML IdP on $name", ({ url }) => {
  let saml: SamlServer;

  beforeAll(async () => {
    saml = await startSamlServer(url ? { postgresUrl: url } : {});
    expect(saml.eid.spMetadataType).toBe(samlMetadataMediaType);
    expect(saml.eidas.spMetadataType).toBe(samlMetadataMediaType);
  });
  afterAll(() => saml.dispose());

  /**
   * The flow sends the browser to the provider's IdP (`eid` unless told); the IdP answers with a
   * signed response for `nameId`, made from its template changed by `edit`.
   */
  async function answered(
    nameId: string,
    { provider = saml.eid, edit }: { provider?: SamlProvider; edit?: TemplateEdit } = {},
  ) {
    const { driver, request } = await atIdp(saml, provider);
    const values: ResponseValues = {
      ...responseValues(request.id, provider.acsUrl, provider.audience),
      NameID: nameId,
    };
    const samlResponse = await signedResponse(
      provider.idp,
      provider.sp,
      request,
      values,
      edit ? { edit } : {},
    );
    return { driver, relayState: request.relayState, requestId: request.id, samlResponse, provider };
  }

  /** The browser posts the IdP's form to Vrata, as the HTTP-POST binding does. */
  const post = (driver: FlowDriver, form: Record<string, string>, provider = saml.eid) =>
    postForm(driver.fetch, provider.acsUrl, form);

  /** The browser brings the IdP's answer to Vrata as the IdP made it. */
  const bringBack = (answer: Awaited<ReturnType<typeof answered>>) =>
    post(
      answer.driver,
      { SAMLResponse: answer.samlResponse, RelayState: answer.relayState },
      answer.provider,
    );

  it("signs up with the persistent NameID and the mapped attributes, then signs the same account in", async () => {
    const first = await answered("eid-7731");
    const answer = await bringBack(first);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/auth/${first.driver.flowId}`);
    expect((await first.driver.get()).completed).toEqual(["signup"]);
    expect(await first.driver.identities()).toEqual([
      expect.objectContaining({ username: "anovak", fullName: "Ana Novak", email: "ana.novak@example.si" }),
    ]);

    const again = await answered("eid-7731");
    await bringBack(again);
    expect((await again.driver.get()).completed).toEqual(["signin"]);
  });

  it("refuses a response of thousands of sibling elements unparsed, answering other requests meanwhile", async () => {
    const hostile = await answered("eid-4242");
    const form = { SAMLResponse: withSiblings(hostile.samlResponse, 8000), RelayState: hostile.relayState };
    expect(new URLSearchParams(form).toString().length).toBeGreaterThan(200_000);
    const { result, parses } = await parsesDuring(() =>
      Promise.all([
        post(hostile.driver, form),
        ...Array.from({ length: 5 }, () => fetch(`${saml.server.url}/health/live`)),
      ]),
    );
    const [refused, ...others] = result;
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(others.map((other) => other.status)).toEqual([200, 200, 200, 200, 200]);
    expect(parses).toBe(0);
  });

  it("lets one of simultaneous posts of one assertion into two flows through, and no later one", async () => {
    const [first, second, third] = await Promise.all([
      answered("eid-5150", { edit: withoutRequestInAssertion }),
      answered("eid-5150"),
      answered("eid-5150"),
    ]);
    const answers = await Promise.all(
      [second, third].map((flow) =>
        post(flow.driver, {
          SAMLResponse: answeringAnother(first.samlResponse, first.requestId, flow.requestId),
          RelayState: flow.relayState,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 303)).toHaveLength(1);
    expect(statuses.filter((status) => status >= 400 && status < 500)).toHaveLength(1);
    const completed = await Promise.all(
      [second, third].map(async (flow) => (await flow.driver.get()).completed),
    );
    expect(completed.flat()).toEqual(["signup"]);

    const late = await post(first.driver, {
      SAMLResponse: first.samlResponse,
      RelayState: first.relayState,
    });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(late.status).toBeLessThan(500);
    expect((await first.driver.get()).completed).toEqual([]);
  });

  it("refuses a replayed response and one posted with another flow's RelayState, without a 500", async () => {
    const first = await answered("eid-9001");
    const form = { SAMLResponse: first.samlResponse, RelayState: first.relayState };
    expect((await post(first.driver, form)).status).toBe(303);
    const replay = await post(first.driver, form);
    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect(replay.status).toBeLessThan(500);

    const second = await answered("eid-9002");
    const crossed = await post(second.driver, {
      SAMLResponse: first.samlResponse,
      RelayState: second.relayState,
    });
    expect(crossed.status).toBeGreaterThanOrEqual(400);
    expect(crossed.status).toBeLessThan(500);
    expect((await second.driver.get()).completed).not.toContain("signup");
    const garbage = await post(second.driver, { SAMLResponse: "%%%", RelayState: "x" });
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(garbage.status).toBeLessThan(500);
  });

  it("takes an organization's app from an IdP's encrypted assertion to its ID token", async () => {
    const signedIn = await answered("eidas-5120", { provider: saml.eidas });
    expect(encryptionMethods(signedIn.samlResponse)).toEqual([xmlenc.aes256gcm, xmlenc.rsaOaep]);
    expect(Buffer.from(signedIn.samlResponse, "base64").toString()).not.toContain("eidas-5120");
    const answer = await bringBack(signedIn);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/auth/${signedIn.driver.flowId}`);
    expect((await signedIn.driver.get()).completed).toEqual(["signup"]);
    const [identity] = await signedIn.driver.identities();
    expect(identity).toMatchObject({
      username: "anovak",
      fullName: "Ana Novak",
      email: "ana.novak@example.si",
    });
    await signedIn.driver.step("chooseIdentity", { identity: { id: identity?.id } });
    await signedIn.driver.step("redirect");
    const tokens = await signedIn.driver.exchange(await signedIn.driver.returnToApp());
    expect(tokens.claims()).toMatchObject({
      aud: saml.app.clientId,
      preferred_username: "anovak",
      name: "Ana Novak",
      email: "ana.novak@example.si",
    });
  });
});
