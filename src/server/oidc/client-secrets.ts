import { AsyncLocalStorage } from "node:async_hooks";
import type Provider from "oidc-provider";
import { clientSecretMatches } from "../organizations/secrets.ts";

/** How the request in progress presents its client secret: in an HTTP Basic header or in the body. */
const presentedMethod = new AsyncLocalStorage<"client_secret_basic" | "client_secret_post">();

/**
 * Client secrets are checked against their stored hash (oidc/clients.ts puts the hash where the
 * engine expects the secret), and only when presented the way the client is registered for:
 * oidc-provider on its own accepts either of client_secret_basic and client_secret_post.
 */
export function enforceClientSecrets(provider: Provider): void {
  provider.use((ctx, next) =>
    presentedMethod.run(
      ctx.get("authorization").toLowerCase().startsWith("basic ")
        ? "client_secret_basic"
        : "client_secret_post",
      next,
    ),
  );
  provider.Client.prototype.compareClientSecret = function (
    this: { clientSecret?: string; clientAuthMethod: string },
    presented: string,
  ) {
    const registeredWay = this.clientAuthMethod === presentedMethod.getStore();
    return Promise.resolve(
      registeredWay && this.clientSecret !== undefined && clientSecretMatches(this.clientSecret, presented),
    );
  };
}
