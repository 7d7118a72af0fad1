import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as samlify from "samlify";
import { expect } from "vitest";
import { createSpCredentials } from "../../src/server/providers/saml/sp-credentials.ts";
import { registerTestApp } from "./apps.ts";
import { FlowDriver } from "./flow-driver.ts";
import { attributeNames, identityProvider, idpReceives } from "./saml-idp.ts";
import { startTestServer, type TestServerOptions } from "./server.ts";

/**
 * A Vrata whose configuration names a samlify IdP as the SAML provider `eid` (its metadata in a
 * file), with an app to sign in to.
 */
export async function startSamlServer(options: TestServerOptions = {}) {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-saml-flow-"));
  const idpKeys = await createSpCredentials("Test IdP");
  const idp = identityProvider(idpKeys, "https://idp.test/sso");
  fs.writeFileSync(path.join(configDir, "idp.xml"), idp.getMetadata());
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
  fs.writeFileSync(path.join(configDir, "vrata.json"), JSON.stringify({ providers: [provider] }));
  const server = await startTestServer({
    ...options,
    args: [...(options.args ?? []), "--config", path.join(configDir, "vrata.json")],
  });
  const app = await registerTestApp(server.db, "Signed in by eID");
  const metadata = await fetch(`${server.url}/samlMetadata/eid`);
  const sp = samlify.ServiceProvider({ metadata: await metadata.text() });
  return {
    server,
    app,
    idp,
    idpKeys,
    sp,
    /** The content type Vrata served its SP metadata with. */
    metadataType: metadata.headers.get("content-type"),
    /** Vrata's assertion consumer service, where the IdP's form posts the answer. */
    acsUrl: `${server.issuer}/auth/provider/eid`,
    dispose: async () => {
      await server.dispose();
      fs.rmSync(configDir, { recursive: true, force: true });
    },
  };
}

export type SamlServer = Awaited<ReturnType<typeof startSamlServer>>;

/** A person starts signing in to the app, chooses the IdP, and the IdP reads the signed request. */
export async function atIdp({ server, app, idp, sp, acsUrl }: SamlServer) {
  const driver = await FlowDriver.start(server.url, app);
  const { status, flow } = await driver.step("providerStart", { provider: "eid" });
  expect(status).toBe(200);
  const location = flow.thirdPartyProvider?.location ?? "";
  expect(location.startsWith("https://idp.test/sso?SAMLRequest=")).toBe(true);
  const request = await idpReceives(idp, sp, { url: location });
  expect(request.acsUrl).toBe(acsUrl);
  return { driver, request };
}

/** A browser posts the IdP's form to Vrata, as the HTTP-POST binding does, asking for a page (or `accept`). */
export const postForm = (
  send: FlowDriver["fetch"],
  acsUrl: string,
  form: Record<string, string>,
  accept = "text/html",
) =>
  send(acsUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept },
    body: new URLSearchParams(form).toString(),
  });
