import { randomBytes } from "node:crypto";
import { once } from "node:events";
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { errors, type ClientAuthMethod } from "oidc-provider";
import { createCa, createServerCertificate, type PemPair } from "../../src/server/http/tls-generate.ts";
import { trustCaPem } from "./server.ts";

// A small OpenID provider for the upstream tests, built on oidc-provider and configured the ways real
// providers are that a Vrata as upstream cannot be: an issuer with a path ending in "/", a token
// endpoint that takes only one client authentication method, ID tokens without the profile claims.
// It serves on loopback over TLS, with a certificate of a local CA the test process trusts.

/** Someone who signs in here, with the claims the provider holds about them. */
export interface OpPerson {
  sub: string;
  claims: Record<string, string | boolean>;
}

export interface TestOpOptions {
  /** The issuer's path: "/" for the bare origin, "/tenant/" for an issuer that ends in "/" after a path. */
  path: string;
  /** The only token endpoint authentication method this provider takes (and its discovery lists). */
  authMethod: ClientAuthMethod;
  /** The client the Vrata under test is here. */
  client: { clientId: string; clientSecret?: string; redirectUri: string; jwksUri?: string };
  /** ID tokens carry the subject only: the profile is at userinfo. */
  thinIdTokens?: boolean;
}

let localCa: Promise<PemPair> | undefined;

/** A certificate for localhost from a CA made once per test process and trusted by it. */
async function localhostCertificate(): Promise<PemPair> {
  localCa ??= createCa().then((ca) => {
    trustCaPem(ca.certPem);
    return ca;
  });
  return createServerCertificate(await localCa, ["localhost", "127.0.0.1", "::1"]);
}

export class TestOp {
  readonly issuer: string;
  /** Every client assertion the token endpoint accepted, as received. */
  readonly assertions: string[] = [];
  /** When set, userinfo answers for this subject instead of the person's: a provider that mixes people up. */
  userinfoSubject: string | undefined;
  readonly #server: https.Server;
  readonly #people = new Map<string, OpPerson["claims"]>();
  #next: OpPerson | undefined;

  private constructor(server: https.Server, issuer: string) {
    this.#server = server;
    this.issuer = issuer;
  }

  static async start(options: TestOpOptions): Promise<TestOp> {
    const tls = await localhostCertificate();
    const server = https.createServer({ cert: tls.certPem, key: tls.keyPem });
    server.listen(0, "localhost");
    await once(server, "listening");
    const mount = options.path.replace(/\/$/, "");
    const op = new TestOp(
      server,
      `https://localhost:${(server.address() as AddressInfo).port}${options.path}`,
    );
    const provider = await op.#provider(options, mount);
    const handle = provider.callback();
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      const url = request.url ?? "/";
      if (mount && !url.startsWith(`${mount}/`)) {
        response.writeHead(404).end();
        return;
      }
      // As a framework mounting the provider under its issuer's path would.
      Object.assign(request, { originalUrl: url, url: url.slice(mount.length) });
      if (request.url?.startsWith("/interaction/")) void op.#finishInteraction(provider, request, response);
      else void handle(request, response);
    });
    return op;
  }

  /** The person the next sign-in here is for. */
  signsIn(person: OpPerson): void {
    this.#people.set(person.sub, person.claims);
    this.#next = person;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, "close");
  }

  async #provider(options: TestOpOptions, mount: string): Promise<Provider> {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const { client } = options;
    return new Provider(this.issuer, {
      jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "op" }] },
      cookies: { keys: [randomBytes(32).toString("base64url")] },
      responseTypes: ["code"],
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        IdToken: 600,
        Interaction: 600,
        Session: 600,
        Grant: 600,
      },
      scopes: ["openid", "profile", "email"],
      claims: {
        openid: ["sub"],
        profile: ["name", "given_name", "preferred_username", "picture"],
        email: ["email", "email_verified"],
      },
      // With it, a code flow's ID token names only the subject and the profile is read at userinfo.
      conformIdTokenClaims: options.thinIdTokens === true,
      clientAuthMethods: [options.authMethod],
      findAccount: (ctx, sub) => ({
        accountId: ctx.oidc.route === "userinfo" ? (this.userinfoSubject ?? sub) : sub,
        claims: () => ({ sub, ...this.#people.get(sub) }),
      }),
      // The audience of a client assertion is the issuer itself, as RFC 7523bis and FAPI 2 require.
      assertJwtClientAuthClaimsAndHeader: (ctx, claims) => {
        if (claims.aud !== ctx.oidc.issuer)
          throw new errors.InvalidClientAuth(`the assertion is for ${JSON.stringify(claims.aud)}`);
        this.assertions.push(String(ctx.oidc.params?.client_assertion));
      },
      // The Vrata under test, whose JWKS this fetches, is on loopback like everything in the tests.
      fetch: (url, init) => {
        const { dispatcher: _refusesLoopback, ...rest } = (init ?? {}) as RequestInit & {
          dispatcher?: unknown;
        };
        return fetch(url, rest);
      },
      interactions: { url: (_ctx, interaction) => `${mount}/interaction/${interaction.uid}` },
      features: { devInteractions: { enabled: false } },
      clients: [
        {
          client_id: client.clientId,
          ...(client.clientSecret === undefined ? {} : { client_secret: client.clientSecret }),
          ...(client.jwksUri === undefined ? {} : { jwks_uri: client.jwksUri }),
          redirect_uris: [client.redirectUri],
          response_types: ["code"],
          grant_types: ["authorization_code"],
          token_endpoint_auth_method: options.authMethod,
        },
      ],
    });
  }

  /** The sign-in page, reduced to its outcome: the next person is signed in and agrees. */
  async #finishInteraction(provider: Provider, request: IncomingMessage, response: ServerResponse) {
    try {
      const person = this.#next;
      if (!person) throw new Error("nobody is to sign in");
      const { params } = await provider.interactionDetails(request, response);
      const grant = new provider.Grant({ accountId: person.sub, clientId: String(params.client_id) });
      grant.addOIDCScope(String(params.scope));
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: person.sub }, consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  }
}
