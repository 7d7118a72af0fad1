import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { openTotpSetUp, startTotpSetUp, stepOfCode, totpCredential } from "../../src/server/accounts/totp.ts";
import { loadInstanceKey } from "../../src/server/secrets/instance-key.ts";
import { deriveInstanceSecrets } from "../../src/server/secrets/instance-secrets.ts";
import { findAccountIdByCredential } from "../../src/server/store/accounts.ts";
import { SoftwareAuthenticator } from "./authenticator.ts";
import { postJson, type ConsoleApi } from "./console.ts";
import type { TestServer } from "./server.ts";

/** The current code of an authenticator app with this base32 secret, as oathtool computes it. */
export const totpCode = (secret: string) =>
  execFileSync("oathtool", ["--totp", "-b", secret]).toString().trim();

/** The account a person signed up to with this username (lower case, as usernames are looked up). */
export async function accountOfUsername(server: TestServer, username: string): Promise<string> {
  const accountId = await findAccountIdByCredential(server.db, "username", username.toLowerCase());
  if (accountId === undefined) throw new Error(`no account with the username ${username}`);
  return accountId;
}

/**
 * Confirms an authenticator app for the account as its set-up does: the seed sealed with the server's
 * own secrets, confirmed with a code oathtool computed. Returns the app's secret.
 */
export async function addAuthenticatorApp(server: TestServer, accountId: string): Promise<string> {
  const { sealer } = deriveInstanceSecrets(
    await loadInstanceKey({
      kind: "file",
      file: path.join(server.dataDir, "secret.key"),
      createIfMissing: false,
    }),
  );
  const { secret, setUpToken } = await startTotpSetUp(sealer, accountId, { issuer: "Vrata", label: "test" });
  const seed = openTotpSetUp(sealer, accountId, setUpToken);
  if (seed !== secret) throw new Error("the set-up token does not carry the secret shown");
  const step = await stepOfCode(seed, totpCode(secret));
  if (step === undefined) throw new Error("the server refused oathtool's code");
  await totpCredential(sealer, accountId, seed, step).store(server.db, Date.now());
  return seed;
}

/** Adds a passkey to the signed-in person's account through the account page's API, as a browser does. */
export async function addPasskey(server: TestServer, api: ConsoleApi): Promise<void> {
  const started = await postJson(api, "/api/account/passkeyCreateStart", {});
  const { createOptions } = (await started.json()) as {
    createOptions: PublicKeyCredentialCreationOptionsJSON;
  };
  const response = new SoftwareAuthenticator(server.issuer).register(createOptions);
  const completed = await postJson(api, "/api/account/passkeyCreateComplete", { response });
  if (completed.status !== 200) throw new Error(`adding a passkey failed with ${completed.status}`);
}
