import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Fastify from "fastify";
import * as samlify from "samlify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerErrorHandlers } from "../src/server/http/errors.ts";
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
import { parseXml } from "../src/server/providers/saml/xml.ts";
import { deriveInstanceSecrets } from "../src/server/secrets/instance-secrets.ts";
import { WrongSecretKey } from "../src/server/secrets/sealing.ts";
import {
  attributeNames,
  identityProvider,
  idpEntityId,
  idpReceives,
  responseValues,
  signedResponse,
  unsignedResponse,
  type Idp,
  type ResponseValues,
  type Sp,
} from "./support/saml-idp.ts";
import type { FlowDriver } from "./support/flow-driver.ts";
import { atIdp, postForm, startSamlServer, type SamlServer } from "./support/saml-server.ts";
import { storeEngines, type TestStore } from "./support/stores.ts";

// Issue 16: Vrata as a SAML service provider, against a real IdP on loopback: samlify in IdP mode,
// with keys of its own (test/support/saml-idp.ts).

const issuer = "https://vrata.test";

const silentLog = { info: () => undefined, warn: () => undefined };

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
      log: silentLog,
      configDir: tmp,
    });

  beforeAll(async () => {
    const engine = storeEngines[0];
    if (!engine) throw new Error("no store engine");
    store = await engine.open();
    const { sealer } = deriveInstanceSecrets(randomBytes(32));
    credentials = await loadSamlSpCredentials(store.db, sealer, "Vrata test");
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
    } = {},
  ) {
    const target = options.to ?? upstream;
    const start = await samlStart(target);
    const request = await idpReceives(idp, options.spOverride ?? sp, start);
    const values = responseValues(request.id, target.acsUrl, target.entityId);
    options.change?.(values);
    const samlResponse = options.unsigned
      ? unsignedResponse(idp, values)
      : await signedResponse(options.by ?? idp, options.spOverride ?? sp, request, values);
    return { start, request, samlResponse };
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

  it("accepts a response signed as a whole when the assertion is not", async () => {
    const unsignedAssertions = samlify.ServiceProvider({
      metadata: spMetadata(upstream).replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"'),
      wantMessageSigned: true,
    });
    const { start, samlResponse } = await signIn({ spOverride: unsignedAssertions });
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

    const document = parseXml(xml);
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
    const fromFile = await open(settings({ metadataUrl: undefined, metadataFile: "idp.xml" }));
    expect(fromFile.idp()?.entityId).toBe(idpEntityId);
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
      log: silentLog,
      retryMs: 20,
      refreshMs: 20,
    });
    try {
      expect(late.idp()).toBeUndefined();
      expect(await refusal(samlStart(late))).toBe("samlIdpUnavailable");
      serveMetadata = () => ({ status: 200, body: idpMetadataXml });
      await expect.poll(() => late.idp()?.entityId).toBe(idpEntityId);
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

describe("signing in through a SAML IdP", () => {
  let saml: SamlServer;

  beforeAll(async () => {
    saml = await startSamlServer();
    expect(saml.metadataType).toBe(samlMetadataMediaType);
  });
  afterAll(() => saml.dispose());

  /** The flow sends the browser to the IdP; the IdP answers with a signed response for `nameId`. */
  async function answered(nameId: string) {
    const { driver, request } = await atIdp(saml);
    const values: ResponseValues = {
      ...responseValues(request.id, saml.acsUrl, `${saml.server.issuer}/samlMetadata/eid`),
      NameID: nameId,
    };
    const samlResponse = await signedResponse(saml.idp, saml.sp, request, values);
    return { driver, relayState: request.relayState, samlResponse };
  }

  /** The browser posts the IdP's form to Vrata, as the HTTP-POST binding does. */
  const post = (driver: FlowDriver, form: Record<string, string>) =>
    postForm(driver.fetch, saml.acsUrl, form);

  it("signs up with the persistent NameID and the mapped attributes, then signs the same account in", async () => {
    const first = await answered("eid-7731");
    const answer = await post(first.driver, {
      SAMLResponse: first.samlResponse,
      RelayState: first.relayState,
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/auth/${first.driver.flowId}`);
    expect((await first.driver.get()).completed).toEqual(["signup"]);
    expect(await first.driver.identities()).toEqual([
      expect.objectContaining({ username: "anovak", fullName: "Ana Novak", email: "ana.novak@example.si" }),
    ]);

    const again = await answered("eid-7731");
    await post(again.driver, {
      SAMLResponse: again.samlResponse,
      RelayState: again.relayState,
    });
    expect((await again.driver.get()).completed).toEqual(["signin"]);
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
});
