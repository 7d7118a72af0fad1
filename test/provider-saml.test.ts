import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { DOMParser } from "@xmldom/xmldom";
import * as samlify from "samlify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { samlClockToleranceMs, samlMetadata, samlResponseXml, type XmlLimits } from "../src/common/limits.ts";
import { registerErrorHandlers } from "../src/server/http/errors.ts";
import { assertionUsesIn, type RecordAssertionUse } from "../src/server/providers/saml/assertion-uses.ts";
import { SamlError, type SamlErrorCode } from "../src/server/providers/saml/errors.ts";
import { IdpMetadataError, parseIdpMetadata } from "../src/server/providers/saml/idp-metadata.ts";
import { samlMetadataPlugin } from "../src/server/providers/saml/routes.ts";
import { nameIdFormats } from "../src/server/providers/saml/saml-names.ts";
import {
  samlProviderSettingsSchema,
  type SamlProviderSettings,
} from "../src/server/providers/saml/settings.ts";
import {
  createSpCredentials,
  loadSamlSpCredentials,
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
import { checkXmlShape, MalformedXml, parseXml } from "../src/server/providers/saml/xml.ts";
import { deriveInstanceSecrets, type InstanceSecrets } from "../src/server/secrets/instance-secrets.ts";
import { WrongSecretKey } from "../src/server/secrets/sealing.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines as serverStores } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { storeEngines, type TestStore } from "./support/stores.ts";

// Issue 16: Vrata as a SAML service provider, against a real IdP on loopback: samlify in IdP mode,
// with keys of its own. samlify insists on a schema validator before it reads any message; the
// schemas need Java or a WebAssembly build that is not installed here, so the tests give it a
// well-formedness check only (this is the IdP's side: Vrata's own parsing is what is under test).
samlify.setSchemaValidator({ validate: (xml: string) => Promise.resolve(parseXml(xml, samlMetadata)) });

const issuer = "https://vrata.test";
const idpEntityId = "https://idp.test/metadata";
const { SamlLib } = samlify;

const attributeNames = {
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

const silentLog = { info: () => undefined, warn: () => undefined };

/** An IdP: samlify with its own key, answering at `ssoUrl`. */
function identityProvider(keys: SamlSpCredentials, ssoUrl: string, entityID = idpEntityId) {
  return samlify.IdentityProvider({
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

type Idp = ReturnType<typeof identityProvider>;
type Sp = ReturnType<typeof samlify.ServiceProvider>;

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** What the IdP makes of the browser arriving at `start.url`: it checks the request's signature. */
async function idpReceives(idp: Idp, sp: Sp, start: SamlStart) {
  const url = new URL(start.url);
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
  };
}

type ResponseValues = Record<string, string>;

/** The values samlify fills its response template with, as it would for `requestId`. */
function responseValues(requestId: string, acsUrl: string, audience: string): ResponseValues {
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
    StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
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
  let idpKeys: SamlSpCredentials;
  let otherKeys: SamlSpCredentials;
  let idp: Idp;
  let idpMetadataXml: string;
  let metadataServer: http.Server;
  let metadataUrl: string;
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
      createSpCredentials("Test IdP"),
      createSpCredentials("Intruder"),
    ]);

    serveMetadata = () => ({ status: 200, body: idpMetadataXml });
    metadataServer = http.createServer((request, response) => {
      const { status, body } = serveMetadata();
      response.writeHead(status, { "content-type": "application/samlmetadata+xml" }).end(body);
    });
    await new Promise<void>((resolve) => metadataServer.listen(0, "127.0.0.1", resolve));
    const { port } = metadataServer.address() as AddressInfo;
    metadataUrl = `http://127.0.0.1:${port}/metadata`;
    idp = identityProvider(idpKeys, `http://127.0.0.1:${port}/sso`);
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
      /** Changes the response's template before it is filled in and signed. */
      edit?: (template: string) => string;
    } = {},
  ) {
    const target = options.to ?? upstream;
    const start = await samlStart(target);
    const request = await idpReceives(idp, options.spOverride ?? sp, start);
    const values = responseValues(request.id, target.acsUrl, target.entityId);
    options.change?.(values);
    const signer = options.by ?? idp;
    const edit = options.edit ?? ((template: string) => template);
    const template = edit(signer.entitySetting.loginResponseTemplate?.context ?? "");
    let samlResponse: string;
    if (options.unsigned) {
      samlResponse = Buffer.from(SamlLib.replaceTagsByValue(template, values)).toString("base64");
    } else {
      const response = await signer.createLoginResponse(
        options.spOverride ?? sp,
        request.info,
        "post",
        {},
        {
          customTagReplacement: (context) => ({
            id: values.ID ?? "",
            context: SamlLib.replaceTagsByValue(edit(context), values),
          }),
        },
      );
      samlResponse = response.context;
    }
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

  it("publishes SP metadata that samlify reads, with the certificate, the ACS URL and both languages", () => {
    const xml = spMetadata(upstream);
    const meta = samlify.ServiceProvider({ metadata: xml }).entityMeta;
    expect(meta.getEntityID()).toBe(`${issuer}/samlMetadata/eid`);
    expect(meta.getAssertionConsumerService("post")).toBe(`${issuer}/auth/provider/eid`);
    const certificateBody = credentials.certificatePem.replace(/-----[^-]+-----|\s/g, "");
    expect(meta.getX509Certificate("signing")).toBe(certificateBody);
    expect(meta.isAuthnRequestSigned()).toBe(true);
    expect(meta.isWantAssertionsSigned()).toBe(true);
    expect([meta.getNameIDFormat()].flat()).toEqual([nameIdFormats.persistent]);

    const document = parseXml(xml, samlMetadata);
    const md = "urn:oasis:names:tc:SAML:2.0:metadata";
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
    const keys = await createSpCredentials("Federation IdP");
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
});

describe.each(storeEngines)("SAML SP key on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  it("is made once, kept sealed, and opens only with the instance key", async () => {
    const instanceKey = randomBytes(32);
    const { sealer } = deriveInstanceSecrets(instanceKey);
    const [first, concurrent] = await Promise.all([
      loadSamlSpCredentials(store.db, sealer, "Vrata"),
      loadSamlSpCredentials(store.db, sealer, "Vrata"),
    ]);
    expect(concurrent).toEqual(first);
    expect(await loadSamlSpCredentials(store.db, sealer, "Renamed")).toEqual(first);
    const rows = await store.db.selectFrom("instance_settings").select(["key", "value"]).execute();
    const keyBody = first.privateKeyPem.replace(/-----[^-]+-----|\s/g, "");
    expect(rows.some((row) => row.value.includes(keyBody.slice(0, 64)))).toBe(false);
    expect(rows.find((row) => row.key === "samlServiceProviderKey")?.value).toMatch(/^sealed:v1:/);
    await expect(
      loadSamlSpCredentials(store.db, deriveInstanceSecrets(randomBytes(32)).sealer, "Vrata"),
    ).rejects.toThrow(WrongSecretKey);
  });
});

describe.each(serverStores)("signing in through a SAML IdP on $name", ({ url }) => {
  let server: TestServer;
  let app: TestApp;
  let idp: Idp;
  let sp: Sp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-saml-flow-"));

  beforeAll(async () => {
    const idpKeys = await createSpCredentials("Test IdP");
    idp = identityProvider(idpKeys, "https://idp.test/sso");
    fs.writeFileSync(path.join(tmp, "idp.xml"), idp.getMetadata());
    const provider = {
      key: "eid",
      type: "saml",
      name: { en: "National eID", sl: "Nacionalna e-identiteta" },
      metadataFile: "idp.xml",
      attributes: {
        email: attributeNames.mail,
        username: attributeNames.uid,
        fullName: attributeNames.displayName,
      },
    };
    fs.writeFileSync(path.join(tmp, "vrata.json"), JSON.stringify({ providers: [provider] }));
    server = await startTestServer({
      args: ["--config", path.join(tmp, "vrata.json")],
      ...(url ? { postgresUrl: url } : {}),
    });
    app = await registerTestApp(server.db, "Signed in by eID");
    const metadata = await fetch(`${server.url}/samlMetadata/eid`);
    expect(metadata.headers.get("content-type")).toBe(samlMetadataMediaType);
    sp = samlify.ServiceProvider({ metadata: await metadata.text() });
  });
  afterAll(async () => {
    await server.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /**
   * The flow sends the browser to the IdP; the IdP answers with a signed response for `nameId`, made
   * from its template changed by `edit`.
   */
  async function atIdp(nameId: string, edit = (template: string) => template) {
    const driver = await FlowDriver.start(server.url, app);
    const { status, flow } = await driver.step("providerStart", { provider: "eid" });
    expect(status).toBe(200);
    const location = flow.thirdPartyProvider?.location ?? "";
    expect(location.startsWith("https://idp.test/sso?SAMLRequest=")).toBe(true);
    const relayState = new URL(location).searchParams.get("RelayState") ?? "";
    const request = await idpReceives(idp, sp, { url: location, requestId: "", relayState });
    const acsUrl = `${server.issuer}/auth/provider/eid`;
    expect(request.acsUrl).toBe(acsUrl);
    const values: ResponseValues = {
      ...responseValues(request.id, acsUrl, `${server.issuer}/samlMetadata/eid`),
      NameID: nameId,
    };
    const response = await idp.createLoginResponse(
      sp,
      request.info,
      "post",
      {},
      {
        customTagReplacement: (context) => ({
          id: values.ID ?? "",
          context: SamlLib.replaceTagsByValue(edit(context), values),
        }),
      },
    );
    return { driver, relayState, requestId: request.id, samlResponse: response.context, acsUrl };
  }

  /** The browser posts the IdP's form to Vrata, as the HTTP-POST binding does. */
  const post = (driver: FlowDriver, acsUrl: string, form: Record<string, string>) =>
    driver.fetch(acsUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: new URLSearchParams(form).toString(),
    });

  it("signs up with the persistent NameID and the mapped attributes, then signs the same account in", async () => {
    const first = await atIdp("eid-7731");
    const answer = await post(first.driver, first.acsUrl, {
      SAMLResponse: first.samlResponse,
      RelayState: first.relayState,
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/auth/${first.driver.flowId}`);
    expect((await first.driver.get()).completed).toEqual(["signup"]);
    expect(await first.driver.identities()).toEqual([
      expect.objectContaining({ username: "anovak", fullName: "Ana Novak", email: "ana.novak@example.si" }),
    ]);

    const again = await atIdp("eid-7731");
    await post(again.driver, again.acsUrl, {
      SAMLResponse: again.samlResponse,
      RelayState: again.relayState,
    });
    expect((await again.driver.get()).completed).toEqual(["signin"]);
  });

  it("refuses a response of thousands of sibling elements unparsed, answering other requests meanwhile", async () => {
    const hostile = await atIdp("eid-4242");
    const form = { SAMLResponse: withSiblings(hostile.samlResponse, 8000), RelayState: hostile.relayState };
    expect(new URLSearchParams(form).toString().length).toBeGreaterThan(200_000);
    const { result, parses } = await parsesDuring(() =>
      Promise.all([
        post(hostile.driver, hostile.acsUrl, form),
        ...Array.from({ length: 5 }, () => fetch(`${server.url}/health/live`)),
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
      atIdp("eid-5150", withoutRequestInAssertion),
      atIdp("eid-5150"),
      atIdp("eid-5150"),
    ]);
    const answers = await Promise.all(
      [second, third].map((flow) =>
        post(flow.driver, flow.acsUrl, {
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

    const late = await post(first.driver, first.acsUrl, {
      SAMLResponse: first.samlResponse,
      RelayState: first.relayState,
    });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(late.status).toBeLessThan(500);
    expect((await first.driver.get()).completed).toEqual([]);
  });

  it("refuses a replayed response and one posted with another flow's RelayState, without a 500", async () => {
    const first = await atIdp("eid-9001");
    const form = { SAMLResponse: first.samlResponse, RelayState: first.relayState };
    expect((await post(first.driver, first.acsUrl, form)).status).toBe(303);
    const replay = await post(first.driver, first.acsUrl, form);
    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect(replay.status).toBeLessThan(500);

    const second = await atIdp("eid-9002");
    const crossed = await post(second.driver, second.acsUrl, {
      SAMLResponse: first.samlResponse,
      RelayState: second.relayState,
    });
    expect(crossed.status).toBeGreaterThanOrEqual(400);
    expect(crossed.status).toBeLessThan(500);
    expect((await second.driver.get()).completed).not.toContain("signup");
    const garbage = await post(second.driver, second.acsUrl, { SAMLResponse: "%%%", RelayState: "x" });
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(garbage.status).toBeLessThan(500);
  });
});
