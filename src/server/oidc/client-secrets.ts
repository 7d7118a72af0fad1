import type Provider from "oidc-provider";
import { clientSecretMatches } from "../organizations/secrets.ts";

/** How a request presents its client secret: in an HTTP Basic header or in the body. */
const presentedMethod = (authorization: string) =>
  authorization.toLowerCase().startsWith("basic ") ? "client_secret_basic" : "client_secret_post";

/**
 * Client secrets are checked against their stored hash (oidc/clients.ts puts the hash where the
 * engine expects the secret), and only when presented the way the client is registered for:
 * oidc-provider on its own accepts either of client_secret_basic and client_secret_post. The request
 * is the engine's own current one (it keeps it for the whole request), read only when a secret is
 * compared: no middleware runs on every request for it.
 */
export function enforceClientSecrets(provider: Provider): void {
  const engine = provider.constructor as typeof Provider;
  provider.Client.prototype.compareClientSecret = function (
    this: { clientSecret?: string; clientAuthMethod: string },
    presented: string,
  ) {
    const ctx = engine.ctx;
    const registeredWay =
      ctx !== undefined && this.clientAuthMethod === presentedMethod(ctx.get("authorization"));
    return Promise.resolve(
      registeredWay && this.clientSecret !== undefined && clientSecretMatches(this.clientSecret, presented),
    );
  };
}
