import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from "jose";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { routes } from "../src/common/routes.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { vrataCommand } from "./support/command.ts";
import { LogLines } from "./support/log-lines.ts";
import { rotateCommand } from "./support/rotate-keys.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { signInToApp } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Signing keys rotate while relying parties hold tokens and cache the published keys: a rotation's keys
// are published before they sign, and the keys they replace stay until the tokens they signed expire.

const run = promisify(execFile);
const minute = 60_000;
const day = 24 * 60 * minute;

interface PublishedKeys {
  keys: (JWK & { kid: string })[];
  etag: string;
}

async function publishedKeys(server: TestServer): Promise<PublishedKeys> {
  const response = await fetch(server.url + routes.OIDCKeys.path);
  const { keys } = (await response.json()) as PublishedKeys;
  return { keys, etag: response.headers.get("etag") ?? "" };
}

const kids = ({ keys }: PublishedKeys) => keys.map((key) => key.kid);
const kidOf = (jwt: string | undefined) => decodeProtectedHeader(jwt ?? "").kid;

/** What `vrata keys rotate` says it published. */
function rotatedKids(stdout: string): string[] {
  const [, first = "", second = ""] = /new signing keys (\S+) and (\S+) are published/.exec(stdout) ?? [];
  return [first, second];
}

describe.each(storeEngines)("signing-key rotation on $name", ({ url }) => {
  describe("while a relying party holds tokens and caches the published keys", () => {
    let server: TestServer;
    let app: TestApp;
    let relyingParty: client.Configuration;
    /** The person's browser. */
    let browser: FlowDriver;
    let jwksRequests = 0;
    /** The tokens the relying party got when the person signed in. */
    let held: client.TokenEndpointResponse;
    let subject: string;
    let refreshToken: string;
    let before: PublishedKeys;
    let rotated: string[];
    const log = new LogLines();
    /** Time passes for Vrata and the relying party alike. */
    const wait = (ms: number) => vi.setSystemTime(Date.now() + ms);

    beforeAll(async () => {
      vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
      server = await startTestServer({
        ...(url === undefined ? {} : { postgresUrl: url }),
        args: ["--log-level", "info"],
        logStream: log,
      });
      app = await registerTestApp(server.db, "Rotating", {
        accessTokenType: "jwt",
        accessTokenLifespan: day / 1000,
        idTokenLifespan: day / 1000,
      });
    });
    afterAll(async () => {
      await server.dispose();
      vi.useRealTimers();
    });

    /** A refresh at the relying party, which checks the new ID token's signature with its cached keys. */
    const refresh = async () => {
      const tokens = await client.refreshTokenGrant(relyingParty, refreshToken);
      refreshToken = tokens.refresh_token ?? "";
      return tokens;
    };

    it("signs a person in with tokens signed by a published key", async () => {
      const driver = await FlowDriver.start(server.issuer, app, {
        scope: "openid profile offline_access",
        prompt: "consent",
      });
      browser = driver;
      relyingParty = driver.config;
      client.enableNonRepudiationChecks(relyingParty);
      relyingParty[client.customFetch] = (input, init) => {
        if (new URL(input).pathname === routes.OIDCKeys.path) jwksRequests++;
        return fetch(input, init as RequestInit);
      };
      await driver.step("passwordStart", { emailOrUsername: "rotating-person" });
      await driver.step("passwordComplete", { password: "a rotating passphrase" });
      const [identity] = await driver.identities();
      await driver.step("chooseIdentity", { identity: { id: identity?.id } });
      await driver.step("redirect");
      const tokens = await driver.exchange(await driver.returnToApp());
      held = tokens;
      subject = tokens.claims()?.sub ?? "";
      refreshToken = tokens.refresh_token ?? "";

      before = await publishedKeys(server);
      const rsa = before.keys.find((key) => key.alg === "RS256");
      expect(kidOf(held.id_token)).toBe(rsa?.kid);
      expect(kidOf(held.access_token)).toBe(rsa?.kid);
      expect(jwksRequests).toBe(1);
    });

    it("publishes a rotation's keys at once, to verify only, while the old ones go on signing", async () => {
      const { stdout } = await rotateCommand(server, url);
      expect(stdout).toMatch(
        /^vrata: new signing keys \S+ and \S+ are published and sign from \S+Z; running instances take them up within a minute\n$/,
      );
      rotated = rotatedKids(stdout);
      await expect(rotateCommand(server, url)).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /^vrata: a rotation is pending already: its keys sign from \S+Z\n$/,
        ) as unknown,
      });

      await server.signingKeys.refresh();
      // The operator reads it in the log too.
      expect(log.events("signingKeysChanged").at(-1)).toMatchObject({
        signing: kids(before).filter((kid) => !rotated.includes(kid)),
        verifyOnly: rotated,
      });
      const during = await publishedKeys(server);
      expect(during.etag).not.toBe(before.etag);
      expect(kids(during)).toEqual([...kids(before), ...rotated]);
      const added = during.keys.filter((key) => rotated.includes(key.kid));
      expect(added.map((key) => [key.alg, key.key_ops])).toEqual([
        ["RS256", ["verify"]],
        ["ES256", ["verify"]],
      ]);
      const tokens = await refresh();
      expect(kidOf(tokens.id_token)).toBe(kidOf(held.id_token));
      expect(kidOf(tokens.access_token)).toBe(kidOf(held.access_token));
    });

    it("signs with the new keys after the lead, which the relying party's cache holds by then", async () => {
      // The relying party's cached keys grow old and are fetched again before the new keys sign.
      wait(58 * minute);
      await server.signingKeys.refresh();
      expect(kidOf((await refresh()).id_token)).toBe(kidOf(held.id_token));
      expect(jwksRequests).toBe(2);

      wait(3 * minute);
      await server.signingKeys.refresh();
      const tokens = await refresh();
      expect(kidOf(tokens.id_token)).toBe(rotated[0]);
      expect(kidOf(tokens.access_token)).toBe(rotated[0]);
      // Checked against the keys it had cached, without fetching them again.
      expect(jwksRequests).toBe(2);

      // Tokens of either key verify, for a relying party that fetches the keys now and at Vrata.
      const keys = createRemoteJWKSet(new URL(server.issuer + routes.OIDCKeys.path));
      for (const idToken of [held.id_token, tokens.id_token]) {
        const { payload } = await jwtVerify(idToken ?? "", keys, {
          issuer: server.issuer,
          audience: app.clientId,
        });
        expect(payload.sub).toBe(subject);
      }
      for (const accessToken of [held.access_token, tokens.access_token]) {
        await jwtVerify(accessToken, keys, { issuer: server.issuer, typ: "at+jwt" });
        const userinfo = await client.fetchUserInfo(relyingParty, accessToken, subject);
        expect(userinfo.preferred_username).toBe("rotating-person");
      }
      // The app can still name the person's session by the ID token of the replaced key to sign out.
      const logout = client.buildEndSessionUrl(relyingParty, { id_token_hint: held.id_token ?? "" });
      const confirmation = await browser.fetch(logout.href, { headers: { accept: "text/html" } });
      expect(confirmation.status).toBe(200);
    });

    it("keeps the replaced keys published until the tokens they signed have expired, then removes them", async () => {
      wait(day - 10 * minute);
      await server.signingKeys.refresh();
      const retiring = await publishedKeys(server);
      expect(kids(retiring)).toEqual([...rotated, ...kids(before)]);
      expect(retiring.keys.map((key) => key.key_ops)).toEqual([undefined, undefined, ["verify"], ["verify"]]);

      wait(20 * minute);
      await server.signingKeys.refresh();
      expect(kids(await publishedKeys(server))).toEqual(rotated);
      expect(server.opened.signingKeys.map((key) => key.kid)).toEqual(rotated);
    });
  });

  describe("on several instances of one store", () => {
    let first: TestServer;
    let second: TestServer;
    beforeAll(async () => {
      const store = url === undefined ? {} : { postgresUrl: url };
      first = await startTestServer({ ...store, keyPollMs: 50 });
      second = await startTestServer({ ...store, shareStoreOf: first, keyPollMs: 50 });
    });
    afterAll(async () => {
      await second.dispose();
      await first.dispose();
    });

    it("takes up a rotation made through another one by itself", async () => {
      const { stdout } = await rotateCommand(first, url, "--key-lead-minutes", "0");
      const [rsa] = rotatedKids(stdout);
      await expect.poll(async () => kids(await publishedKeys(second)), { timeout: 5000 }).toContain(rsa);
      const app = await registerTestApp(second.db, "Second instance");
      const { tokens } = await signInToApp(second.issuer, app, "second-instance-person");
      expect(kidOf(tokens.id_token)).toBe(rsa);
    });

    it("makes one rotation of rotations asked for at the same moment", async () => {
      const outcomes = await Promise.allSettled([rotateCommand(first, url), rotateCommand(second, url)]);
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === "rejected");
      expect(refused?.reason).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/pending already/) as unknown,
      });
      const generations = await first.db
        .selectFrom("signing_keys")
        .select(["alg", "generation"])
        .orderBy("alg")
        .orderBy("generation")
        .execute();
      expect(generations.map(({ alg, generation }) => `${alg} ${generation}`)).toEqual([
        "ES256 1",
        "ES256 2",
        "ES256 3",
        "RS256 1",
        "RS256 2",
        "RS256 3",
      ]);
    });
  });
});

describe("vrata keys", () => {
  it("answers bad input with one line and exit code 2", async () => {
    const cases = [
      { args: ["keys"], message: "usage: vrata keys rotate [options]" },
      { args: ["keys", "turn"], message: "usage: vrata keys rotate [options]" },
      { args: ["keys", "rotate", "--key-lead-minutes", "soon"], message: "--key-lead-minutes" },
      { args: ["keys", "rotate", "--key-lead-minutes=-5"], message: "must be 0 or more" },
      { args: ["keys", "rotate", "--data", "/nonexistent/vrata"], message: "no store at /nonexistent/vrata" },
    ];
    const answers = cases.map(({ args }) =>
      run(process.execPath, [...vrataCommand, ...args]).then(
        () => undefined,
        (error: unknown) => error as { code: number; stderr: string },
      ),
    );
    for (const [index, { args, message }] of cases.entries()) {
      const refused = await answers[index];
      expect(refused?.code, args.join(" ")).toBe(2);
      expect(refused?.stderr, args.join(" ")).toMatch(/^vrata: [^\n]+\n$/);
      expect(refused?.stderr, args.join(" ")).toContain(message);
    }
  });
});
