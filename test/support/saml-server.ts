import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as samlify from "samlify";
import { expect } from "vitest";
import { createSamlKeyPair, type SamlKeyPair } from "../../src/server/providers/saml/sp-credentials.ts";
import { registerTestApp } from "./apps.ts";
import { FlowDriver } from "./flow-driver.ts";
import {
  attributeNames,
  encrypting,
  identityProvider,
  idpEntityId,
  idpReceives,
  xmlenc,
  type Idp,
  type Sp,
} from "./saml-idp.ts";
import { startTestServer, type TestServerOptions } from "./server.ts";

/** One SAML provider of the server: the samlify IdP behind it, and Vrata as that IdP knows it. */
export interface SamlProvider {
  /** The provider's key in Vrata's configuration. */
  key: string;
  idp: Idp;
  /** The key the IdP signs with. */
  idpKeys: SamlKeyPair;
  /** The IdP's sign-in page, where Vrata sends the browser. */
  ssoUrl: string;
  /** Vrata's SP metadata for the provider, as served. */
  spMetadata: string;
  /** The content type Vrata served `spMetadata` with. */
  spMetadataType: string | null;
  /** Vrata as the IdP reads it from `spMetadata`. */
  sp: Sp;
  /** Vrata's assertion consumer service for the provider, where the IdP's form posts the answer. */
  acsUrl: string;
  /** Vrata's entity ID at the IdP: the audience of the IdP's assertions. */
  audience: string;
}

/**
 * A Vrata whose configuration names two samlify IdPs as SAML providers (their metadata in files),
 * with an app to sign in to: `eid` signs its assertions; `eidas`, as an eIDAS node does, also
 * encrypts them (AES-256-GCM, RSA-OAEP) to the key in Vrata's SP metadata, and its own metadata
 * offers an encryption key Vrata has no use for.
 */
export async function startSamlServer(options: TestServerOptions = {}) {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-saml-flow-"));
  const [eidKeys, eidasKeys, eidasEncryption] = await Promise.all([
    createSamlKeyPair("Test IdP", "signing"),
    createSamlKeyPair("eIDAS node", "signing"),
    createSamlKeyPair("eIDAS node", "encryption"),
  ]);
  const idps = {
    eid: { keys: eidKeys, ssoUrl: "https://idp.test/sso", encryption: {} },
    eidas: {
      keys: eidasKeys,
      ssoUrl: "https://eidas.test/sso",
      encryption: { ...encrypting(xmlenc.aes256gcm), encryptCert: eidasEncryption.certificatePem },
    },
  };
  const configured = Object.entries(idps).map(([key, { keys, ssoUrl, encryption }]) => {
    const idp = identityProvider(keys, ssoUrl, idpEntityId, encryption);
    fs.writeFileSync(path.join(configDir, `${key}.xml`), idp.getMetadata());
    return { key, idp, idpKeys: keys, ssoUrl };
  });
  const providers = configured.map(({ key }) => ({
    key,
    type: "saml",
    name: { en: "National eID", sl: "Nacionalna e-identiteta" },
    metadataFile: `${key}.xml`,
    attributes: {
      email: attributeNames.mail,
      username: attributeNames.uid,
      fullName: attributeNames.displayName,
    },
  }));
  fs.writeFileSync(path.join(configDir, "vrata.json"), JSON.stringify({ providers }));
  const server = await startTestServer({
    ...options,
    args: [...(options.args ?? []), "--config", path.join(configDir, "vrata.json")],
  });
  const app = await registerTestApp(server.db, "Signed in by eID");
  const [eid, eidas] = await Promise.all(
    configured.map(async (idp): Promise<SamlProvider> => {
      const metadata = await fetch(`${server.url}/samlMetadata/${idp.key}`);
      const spMetadata = await metadata.text();
      return {
        ...idp,
        spMetadata,
        spMetadataType: metadata.headers.get("content-type"),
        sp: samlify.ServiceProvider({ metadata: spMetadata }),
        acsUrl: `${server.issuer}/auth/provider/${idp.key}`,
        audience: `${server.issuer}/samlMetadata/${idp.key}`,
      };
    }),
  );
  if (!eid || !eidas) throw new Error("a SAML provider is missing");
  return {
    server,
    app,
    /** A SAML IdP that signs its assertions. */
    eid,
    /** A SAML IdP that signs its assertions and encrypts them. */
    eidas,
    dispose: async () => {
      await server.dispose();
      fs.rmSync(configDir, { recursive: true, force: true });
    },
  };
}

export type SamlServer = Awaited<ReturnType<typeof startSamlServer>>;

/**
 * A person starts signing in to the app, chooses the provider (`eid` unless told), and its IdP reads
 * the signed request as made for `sp` (Vrata as its served metadata describes it, unless told).
 */
export async function atIdp(saml: SamlServer, provider: SamlProvider = saml.eid, sp = provider.sp) {
  const driver = await FlowDriver.start(saml.server.url, saml.app);
  const { status, flow } = await driver.step("providerStart", { provider: provider.key });
  expect(status).toBe(200);
  const location = flow.thirdPartyProvider?.location ?? "";
  expect(location.startsWith(`${provider.ssoUrl}?SAMLRequest=`)).toBe(true);
  const request = await idpReceives(provider.idp, sp, { url: location });
  expect(request.acsUrl).toBe(provider.acsUrl);
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
