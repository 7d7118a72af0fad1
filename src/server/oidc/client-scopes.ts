import Provider, { errors } from "oidc-provider";
import { openIdScopes } from "../../common/scopes.ts";
import { appScopesOf } from "./client-extras.ts";

// The scopes of an app's own API are the client's, not the engine's: the engine's configuration lists
// only the OpenID scopes, for every client, and drops any other scope a request names without a word.
// The engine learns which scopes of a request it takes from one accessor of its request context, at
// the authorization endpoint and pushed requests (before the person is asked), and for the
// client_credentials and refresh_token grants. There, a client's own scopes are taken for that client
// alone, and any other scope is refused with invalid_scope instead of being dropped.

const engineScopes: ReadonlySet<string> = new Set(openIdScopes);

/** The configured scopes of every engine: the OpenID scopes only. */
export const engineScopeConfiguration = [...openIdScopes];

type Context = InstanceType<Provider["OIDCContext"]>;

/** Makes `provider` take each client's own scopes for that client, and refuse scopes it was not granted. */
export function acceptClientScopes(provider: Provider): void {
  Object.defineProperty(provider.OIDCContext.prototype, "requestParamOIDCScopes", {
    configurable: true,
    get(this: Context): Set<string> {
      const scope: unknown = this.params?.scope;
      const requested = typeof scope === "string" ? scope.split(" ").filter(Boolean) : [];
      const own = appScopesOf(this.client);
      const refused = requested.filter((name) => !engineScopes.has(name) && !own.has(name));
      if (refused.length > 0) {
        throw new errors.InvalidScope("requested scope is not allowed", refused.join(" "));
      }
      return new Set(requested);
    },
  });
}
