import type { TOTP } from "otpauth";
import type { TotpSetUp } from "../../common/api/second-factor.ts";
import { totpDigits, totpPeriodSeconds, totpSetUpLifetimeMs, totpWindowSteps } from "../../common/limits.ts";
import { newId } from "../ids.ts";
import type { Sealer } from "../secrets/sealing.ts";
import {
  credentialsOf,
  insertCredential,
  swapCredentialData,
  type StoredCredential,
} from "../store/accounts.ts";
import type { Database } from "../store/database.ts";

// Authenticator apps (TOTP, RFC 6238) as a second factor. The seed is kept sealed with the instance
// key, so a copy of the store reveals none; each time step is accepted once (the last accepted step is
// stored with the seed and replaced only if unchanged, so codes sent at the same moment pass once).
// The TOTP and QR code libraries load on first use: most workers never see an authenticator app.

export const totpProvider = "totp";

/** What the credential row of an authenticator app holds. */
interface TotpData {
  /** The seed in base32, sealed. */
  seed: string;
  /** The last time step a code was accepted for: it and the ones before are refused. */
  lastStep: number;
}

const algorithm = "SHA1";

const sealContext = (credentialId: string) => `totp seed:${credentialId}`;
const setUpContext = (where: string) => `totp set-up:${where}`;

async function totpOf(seed: string, label = "", issuer = ""): Promise<TOTP> {
  const { Secret, TOTP } = await import("otpauth");
  return new TOTP({
    issuer,
    label,
    algorithm,
    digits: totpDigits,
    period: totpPeriodSeconds,
    secret: Secret.fromBase32(seed),
  });
}

/**
 * A new authenticator app to add: its seed (160 bits, RFC 4226's recommendation), the URI its QR code
 * carries, and a token sealing the seed to `where` (an account, or a flow) until it is confirmed.
 */
export async function startTotpSetUp(
  sealer: Sealer,
  where: string,
  { issuer, label }: { issuer: string; label: string },
  now = Date.now(),
): Promise<TotpSetUp> {
  const [{ Secret }, { default: QRCode }] = await Promise.all([import("otpauth"), import("qrcode")]);
  const seed = new Secret({ size: 20 }).base32;
  const setUpToken = sealer.seal(
    JSON.stringify({ seed, expiresAt: now + totpSetUpLifetimeMs }),
    setUpContext(where),
  );
  const uri = (await totpOf(seed, label, issuer)).toString();
  // An SVG image the page shows as it is (a data URL in an img: nothing in it runs).
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  const qrCode = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
  return { uri, secret: seed, qrCode, setUpToken };
}

/** The seed a set-up token carries, if it was made for `where` and has not expired. */
export function openTotpSetUp(sealer: Sealer, where: string, setUpToken: string, now = Date.now()) {
  try {
    const { seed, expiresAt } = JSON.parse(sealer.open(setUpToken, setUpContext(where))) as {
      seed: string;
      expiresAt: number;
    };
    return expiresAt > now ? seed : undefined;
  } catch {
    return undefined;
  }
}

/** The time step a code is right for, within the tolerated window; undefined when it is wrong. */
export async function stepOfCode(seed: string, code: string, now = Date.now()): Promise<number | undefined> {
  const token = code.replace(/\s/g, "");
  if (!new RegExp(`^\\d{${totpDigits}}$`).test(token)) return undefined;
  const totp = await totpOf(seed);
  const delta = totp.validate({ token, timestamp: now, window: totpWindowSteps });
  if (delta === null) return undefined;
  return totp.counter({ timestamp: now }) + delta;
}

/** Stores a confirmed authenticator app for the account; `step` is the step its first code was for. */
export function totpCredential(sealer: Sealer, accountId: string, seed: string, step: number) {
  const id = newId();
  const data: TotpData = { seed: sealer.seal(seed, sealContext(id)), lastStep: step };
  return {
    id,
    store: (db: Database, now: number) =>
      insertCredential(
        db,
        {
          id,
          accountId,
          provider: totpProvider,
          providerId: null,
          displayName: "",
          data: JSON.stringify(data),
        },
        now,
      ),
  };
}

export async function totpOfAccount(db: Database, accountId: string): Promise<StoredCredential | undefined> {
  return (await credentialsOf(db, accountId, totpProvider))[0];
}

/**
 * Whether the code is the account's authenticator app's for now, and was not used before. The caller
 * reserves the guess first (flow/throttle.ts).
 */
export async function verifyTotp(
  db: Database,
  sealer: Sealer,
  accountId: string,
  code: string,
  now = Date.now(),
): Promise<boolean> {
  const credential = await totpOfAccount(db, accountId);
  if (!credential) return false;
  const data = JSON.parse(credential.data) as TotpData;
  const step = await stepOfCode(sealer.open(data.seed, sealContext(credential.id)), code, now);
  if (step === undefined || step <= data.lastStep) return false;
  const after: TotpData = { ...data, lastStep: step };
  return swapCredentialData(db, credential.id, credential.data, JSON.stringify(after), now);
}
