import { randomBytes } from "node:crypto";
import * as samlify from "samlify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageError } from "../src/common/api/page-error.ts";
import { createSamlKeyPair, type SamlKeyPair } from "../src/server/providers/saml/sp-credentials.ts";
import { consoleSignUp } from "./support/console.ts";
import type { FlowDriver } from "./support/flow-driver.ts";
import { isCardPage, pageErrorOf } from "./support/page-error.ts";
import { storeEngines } from "./support/postgres.ts";
import {
  alteredResponse,
  encryptingTo,
  encryptionMethods,
  errorResponse,
  identityProvider,
  idpReceives,
  responseValues,
  signedResponse,
  type IdpError,
  type ReceivedRequest,
  type ResponseValues,
  xmlenc,
} from "./support/saml-idp.ts";
import { atIdp, postForm, startSamlServer, type SamlServer } from "./support/saml-server.ts";

// Issue 27: a SAML answer that is refused is the web app's card page (a 4xx, never raw JSON unless
// JSON is asked for) saying what went wrong and leading on; an IdP's error status for the sign-in's
// own request ends the sign-in, and the app is told access_denied, as with an OIDC provider's error.

const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe.each(storeEngines)("SAML answers on $name", ({ url }) => {
  let saml: SamlServer;
  let intruderKeys: SamlKeyPair;

  beforeAll(async () => {
    [saml, intruderKeys] = await Promise.all([
      startSamlServer(url ? { postgresUrl: url } : {}),
      createSamlKeyPair("Intruder", "signing"),
    ]);
  });
  afterAll(() => saml.dispose());

  /** What the IdP fills its response to `request` with, as it would for a good answer. */
  const valuesFor = (request: ReceivedRequest, change?: (values: ResponseValues) => void) => {
    const values = responseValues(request.id, saml.eid.acsUrl, saml.eid.audience);
    change?.(values);
    return values;
  };

  /** The IdP's signed answer to `request`, with `change` made to what it says. */
  const answerTo = (request: ReceivedRequest, change?: (values: ResponseValues) => void) =>
    signedResponse(saml.eid.idp, saml.eid.sp, request, valuesFor(request, change));

  /**
   * The person's browser posts the IdP's answer to Vrata with the sign-in's RelayState, to the
   * assertion consumer service the request named.
   */
  const bringBack = (driver: FlowDriver, request: ReceivedRequest, samlResponse: string, accept?: string) =>
    postForm(
      driver.fetch,
      request.acsUrl,
      { SAMLResponse: samlResponse, RelayState: request.relayState },
      accept,
    );

  /** The answer is the card page with `status`, carrying `expected` as its error. */
  async function expectCard(response: Response, status: number, expected: PageError) {
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(isCardPage(html)).toBe(true);
    expect(pageErrorOf(html)).toEqual(expected);
  }

  const refusals: [string, (request: ReceivedRequest) => Promise<string> | string, string][] = [
    [
      "a signed response changed on the way",
      async (request) => alteredResponse(await answerTo(request)),
      "samlSignatureInvalid",
    ],
    [
      "a response signed with a key the IdP does not publish",
      (request) =>
        signedResponse(
          identityProvider(intruderKeys, "https://idp.test/sso"),
          saml.eid.sp,
          request,
          valuesFor(request),
        ),
      "samlSignatureInvalid",
    ],
    [
      "an expired assertion",
      (request) =>
        answerTo(request, (values) => {
          values.IssueInstant = at(-10 * 60_000);
          values.ConditionsNotBefore = at(-10 * 60_000);
          values.ConditionsNotOnOrAfter = at(-60_000);
          values.SubjectConfirmationDataNotOnOrAfter = at(-60_000);
        }),
      "samlExpired",
    ],
    [
      "an assertion dated ahead by more than the clocks may differ",
      (request) =>
        answerTo(request, (values) => {
          values.ConditionsNotBefore = at(5 * 60_000);
        }),
      "samlNotYetValid",
    ],
    ["a response that is not SAML", () => "not base64 at all!", "samlResponseMalformed"],
    [
      "a response to another request",
      (request) =>
        answerTo(request, (values) => {
          values.InResponseTo = `_${randomBytes(20).toString("hex")}`;
        }),
      "samlInResponseToMismatch",
    ],
    [
      "an error status answering another request",
      () =>
        errorResponse(
          saml.eid.idp,
          { status: "Responder", detail: "AuthnFailed" },
          { acsUrl: saml.eid.acsUrl, inResponseTo: `_${randomBytes(20).toString("hex")}` },
        ),
      "samlInResponseToMismatch",
    ],
    [
      "an error status answering no request",
      () =>
        errorResponse(
          saml.eid.idp,
          { status: "Responder", detail: "AuthnFailed" },
          { acsUrl: saml.eid.acsUrl },
        ),
      "samlInResponseToMismatch",
    ],
    [
      "an error status issued by another IdP",
      (request) =>
        errorResponse(
          saml.eid.idp,
          { status: "Responder", detail: "AuthnFailed" },
          { acsUrl: saml.eid.acsUrl, inResponseTo: request.id, issuer: "https://other-idp.example" },
        ),
      "samlIssuerMismatch",
    ],
  ];

  it.each(refusals)(
    "refuses %s with the card page, leading back to the sign-in",
    async (_case, answer, reason) => {
      const { driver, request } = await atIdp(saml);
      const response = await bringBack(driver, request, await answer(request));
      await expectCard(response, 400, {
        error: "providerAnswerInvalid",
        reason,
        provider: "eid",
        resume: { flowId: driver.flowId },
      });
      // The sign-in goes on: nothing completed or failed.
      expect((await driver.get()).completed).toEqual([]);
    },
  );

  it("refuses an assertion encrypted to another key than Vrata's with the card page, leading back to the sign-in", async () => {
    const { eidas } = saml;
    const elsewhere = samlify.ServiceProvider({ metadata: encryptingTo(eidas.spMetadata, intruderKeys) });
    const { driver, request } = await atIdp(saml, eidas, elsewhere);
    const answer = await signedResponse(
      eidas.idp,
      elsewhere,
      request,
      responseValues(request.id, eidas.acsUrl, eidas.audience),
    );
    expect(encryptionMethods(answer)).toEqual([xmlenc.aes256gcm, xmlenc.rsaOaep]);
    await expectCard(await bringBack(driver, request, answer), 400, {
      error: "providerAnswerInvalid",
      reason: "samlDecryptionFailed",
      provider: "eidas",
      resume: { flowId: driver.flowId },
    });
    expect((await driver.get()).completed).toEqual([]);
  });

  it("lets the person go back to the sign-in after a refused answer and sign in with the next one", async () => {
    const first = await atIdp(saml);
    const forged = alteredResponse(await answerTo(first.request));
    expect((await bringBack(first.driver, first.request, forged)).status).toBe(400);
    // The card's way back is the flow's page, which still offers the provider.
    const flowPage = await first.driver.fetch(`${saml.server.url}/auth/${first.driver.flowId}`, {
      headers: { accept: "text/html" },
    });
    expect(flowPage.status).toBe(200);
    const { flow } = await first.driver.step("providerStart", { provider: "eid" });
    const request = await idpReceives(saml.eid.idp, saml.eid.sp, {
      url: flow.thirdPartyProvider?.location ?? "",
    });
    const answer = await answerTo(request);
    const accepted = await bringBack(first.driver, request, answer);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe(`/auth/${first.driver.flowId}`);
    expect((await first.driver.get()).completed).toEqual(["signup"]);
  });

  it("refuses answers that name no sign-in of this browser with the card page, and no way into a flow", async () => {
    const { driver, request } = await atIdp(saml);
    const answer = await answerTo(request);
    const noSignIn = { error: "providerCallbackInvalid", provider: "eid" };

    // A RelayState of no sign-in.
    const unknown = await postForm(driver.fetch, saml.eid.acsUrl, {
      SAMLResponse: answer,
      RelayState: "x".repeat(43),
    });
    await expectCard(unknown, 400, noSignIn);
    // The right RelayState, brought to another browser (without the cookie of the one that started):
    // refused, and the answer is used up.
    await expectCard(
      await postForm(fetch, saml.eid.acsUrl, { SAMLResponse: answer, RelayState: request.relayState }),
      400,
      noSignIn,
    );
    await expectCard(await bringBack(driver, request, answer), 400, noSignIn);
    expect((await driver.get()).completed).toEqual([]);

    // A good answer, then the same again (the browser's Back button, or a replay).
    const again = await atIdp(saml);
    const good = await answerTo(again.request);
    expect((await bringBack(again.driver, again.request, good)).status).toBe(303);
    await expectCard(await bringBack(again.driver, again.request, good), 400, noSignIn);
  });

  it("refuses an answer the sign-in no longer waits for, leading back to it, and one whose sign-in ended", async () => {
    const { driver, request } = await atIdp(saml);
    // The person chose the provider again: only the latest start is waited for.
    await driver.step("providerStart", { provider: "eid" });
    const answer = await answerTo(request);
    await expectCard(await bringBack(driver, request, answer), 400, {
      error: "providerCallbackInvalid",
      provider: "eid",
      resume: { flowId: driver.flowId },
    });

    // The sign-in has ended (it expired) while the person was at the IdP: its flow and the engine's
    // authorization request are past their time (every request's: no other test is waiting on one).
    const ended = await atIdp(saml);
    await saml.server.db
      .updateTable("flows")
      .set({ expires_at: 1 })
      .where("id", "=", ended.driver.flowId)
      .execute();
    await saml.server.db
      .updateTable("oidc_models")
      .set({ expires_at: 1 })
      .where("model", "=", "Interaction")
      .execute();
    const late = await answerTo(ended.request);
    await expectCard(await bringBack(ended.driver, ended.request, late), 400, {
      error: "providerCallbackInvalid",
      provider: "eid",
    });
  });

  it("answers an API client asking for JSON with JSON", async () => {
    const { driver, request } = await atIdp(saml);
    const answer = alteredResponse(await answerTo(request));
    const refused = await bringBack(driver, request, answer, "application/json");
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({
      error: "providerAnswerInvalid",
      message: "the provider's answer did not pass its checks",
      reason: "samlSignatureInvalid",
    });
    const replayed = await bringBack(driver, request, answer, "application/json");
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toMatchObject({ error: "providerCallbackInvalid" });
  });

  const statuses: [string, IdpError, "denied" | "failed", "signed" | "unsigned"][] = [
    ["Responder / AuthnFailed", { status: "Responder", detail: "AuthnFailed" }, "denied", "unsigned"],
    ["Responder / AuthnFailed, signed", { status: "Responder", detail: "AuthnFailed" }, "denied", "signed"],
    ["Responder / NoPassive", { status: "Responder", detail: "NoPassive" }, "denied", "unsigned"],
    ["Responder / RequestDenied", { status: "Responder", detail: "RequestDenied" }, "denied", "unsigned"],
    [
      "a cancel (Requester / RequestDenied)",
      { status: "Requester", detail: "RequestDenied", message: "The person cancelled" },
      "denied",
      "unsigned",
    ],
    ["Responder without a reason", { status: "Responder" }, "failed", "unsigned"],
    [
      "Requester / InvalidNameIDPolicy",
      { status: "Requester", detail: "InvalidNameIDPolicy" },
      "failed",
      "signed",
    ],
  ];

  it.each(statuses)(
    "ends the sign-in on the IdP's status %s, and the app is told access_denied",
    async (_case, status, failure, signing) => {
      const { driver, request } = await atIdp(saml);
      const answer = errorResponse(saml.eid.idp, status, {
        acsUrl: saml.eid.acsUrl,
        inResponseTo: request.id,
        ...(signing === "signed" ? { signer: saml.eid.idpKeys } : {}),
      });
      const response = await bringBack(driver, request, answer);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(`/auth/${driver.flowId}`);
      const flow = await driver.get();
      expect(flow.completed).toEqual(["failed"]);
      expect(flow.providerError).toEqual({ provider: "eid", error: failure });

      // The flow page's Return, then the app's redirect_uri: openid-client, as the app, finds its own
      // state and the error.
      expect((await driver.step("redirect")).status).toBe(200);
      const callback = await driver.returnToApp();
      expect(callback.origin + callback.pathname).toBe(saml.app.redirectUri);
      expect(callback.searchParams.get("state")).toBe(driver.state);
      await expect(driver.exchange(callback)).rejects.toMatchObject({
        name: "AuthorizationResponseError",
        error: "access_denied",
      });
    },
  );

  it("tells the account page that linking was refused, and shows a refused link answer as the card", async () => {
    const person = await consoleSignUp(saml.server.url, `linker-${randomBytes(4).toString("hex")}`);
    const startLink = async () => {
      const started = await person.driver.fetch(`${saml.server.url}/api/account/providerLinkStart/eid`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${person.tokens.access_token}`,
          "content-type": "application/json",
        },
        body: "{}",
      });
      expect(started.status).toBe(200);
      const { location } = (await started.json()) as { location: string };
      return idpReceives(saml.eid.idp, saml.eid.sp, { url: location });
    };

    const cancelled = await startLink();
    const cancel = errorResponse(
      saml.eid.idp,
      { status: "Responder", detail: "AuthnFailed" },
      { acsUrl: saml.eid.acsUrl, inResponseTo: cancelled.id },
    );
    const back = await bringBack(person.driver, cancelled, cancel);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/account?provider=eid&link=denied");

    const expired = await startLink();
    const late = await answerTo(expired, (values) => {
      values.ConditionsNotOnOrAfter = at(-60_000);
      values.SubjectConfirmationDataNotOnOrAfter = at(-60_000);
    });
    await expectCard(await bringBack(person.driver, expired, late), 400, {
      error: "providerAnswerInvalid",
      reason: "samlExpired",
      provider: "eid",
      resume: "account",
    });
  });
});
