import fs from "node:fs/promises";
import * as client from "openid-client";
import type { OidcProviderSettings } from "../config.ts";
import { clientKeyAlgorithm, type UpstreamClientKey } from "./client-key.ts";
import { UpstreamMisconfigured } from "./upstream.ts";

// How Vrata proves itself at a provider's token endpoint: the method the provider's entry names,
// held against what the provider's discovery document says it takes.

/** A discovery document without the list takes only this (OIDC Discovery §3, RFC 8414 §2). */
const methodsWhenUnlisted = ["client_secret_basic"];

async function clientSecretOf(settings: OidcProviderSettings): Promise<string> {
  const source = settings.clientSecret;
  if (!source) throw new Error(`${settings.tokenEndpointAuthMethod} needs a client secret`);
  if (source.kind === "env") {
    const value = process.env[source.name];
    if (!value)
      throw new Error(`the environment variable ${source.name} holding its client secret is not set`);
    return value;
  }
  const value = (await fs.readFile(source.file, "utf8")).trim();
  if (!value) throw new Error(`its client secret file ${source.file} is empty`);
  return value;
}

/** Refuses a method or an algorithm the provider does not list. */
function requireListed(what: string, value: string, listed: readonly string[]): void {
  if (!listed.includes(value))
    throw new UpstreamMisconfigured(
      `tokenEndpointAuthMethod ${what} is not one the provider takes: its discovery document lists ${listed.join(", ") || "none"}`,
    );
}

/**
 * The client authentication of the entry's method. Client secret Basic sends the ID and secret
 * form-urlencoded before base64 (RFC 6749 §2.3.1), and private_key_jwt names the provider's issuer as
 * the assertion's audience (openid-client does both).
 */
export async function clientAuthentication(
  settings: OidcProviderSettings,
  metadata: client.ServerMetadata,
  clientKey: UpstreamClientKey | undefined,
): Promise<client.ClientAuth> {
  const method = settings.tokenEndpointAuthMethod;
  const listed = metadata.token_endpoint_auth_methods_supported ?? methodsWhenUnlisted;
  requireListed(method === "none" ? "none (no client secret)" : method, method, listed);
  switch (method) {
    case "none":
      return client.None();
    case "client_secret_basic":
      return client.ClientSecretBasic(await clientSecretOf(settings));
    case "client_secret_post":
      return client.ClientSecretPost(await clientSecretOf(settings));
    case "private_key_jwt": {
      const algorithms = metadata.token_endpoint_auth_signing_alg_values_supported;
      if (algorithms)
        requireListed(`private_key_jwt with ${clientKeyAlgorithm}`, clientKeyAlgorithm, algorithms);
      if (!clientKey) throw new Error("private_key_jwt needs Vrata's client-assertion key");
      return client.PrivateKeyJwt({ key: clientKey.privateKey, kid: clientKey.kid });
    }
  }
}
