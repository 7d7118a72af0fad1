import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";

// A software authenticator and browser in one: it makes ES256 passkeys and answers WebAuthn
// ceremonies with the bytes a real one sends (W3C WebAuthn §6.1 authenticator data, attestation
// "none", §6.3.3 assertion signatures), so tests exercise the server's verification for real.

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

/** The CBOR head of a major type with its argument (RFC 8949 §3). */
function head(major: number, argument: number): Buffer {
  if (argument < 24) return Buffer.from([(major << 5) | argument]);
  if (argument < 0x100) return Buffer.from([(major << 5) | 24, argument]);
  if (argument < 0x10000) return Buffer.from([(major << 5) | 25, argument >> 8, argument & 0xff]);
  const long = Buffer.alloc(5);
  long[0] = (major << 5) | 26;
  long.writeUInt32BE(argument, 1);
  return long;
}

/** Canonical enough CBOR for the few shapes WebAuthn uses: integers, byte and text strings, maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([
    head(5, entries.length),
    ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)]),
  ]);
}

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** Authenticator data flags (WebAuthn §6.1). */
export const flags = { userPresent: 0x01, userVerified: 0x04, attestedCredential: 0x40 } as const;

/** What a test may change to play an attacker or a broken browser. */
export interface CeremonyTweaks {
  /** The origin the "browser" puts in the client data; the page's own origin by default. */
  origin?: string;
  /** The RP ID whose hash the "authenticator" puts in its data; the options' RP ID by default. */
  rpId?: string;
  /** The challenge signed; the options' challenge by default. */
  challenge?: string;
  /** The signature counter reported; by default one more than the last one. */
  counter?: number;
  flags?: number;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  readonly #privateKey: KeyObject;
  readonly #publicKey: KeyObject;
  readonly #countsSignatures: boolean;
  /** The model it says it is; all zeros when it does not say. */
  readonly #aaguid: Buffer;
  userHandle = "";
  counter = 0;
  /** The page's origin, as a browser on the server's site sends it. */
  readonly origin: string;

  constructor(origin: string, options: { countsSignatures?: boolean; aaguid?: string } = {}) {
    this.origin = origin;
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.#privateKey = pair.privateKey;
    this.#publicKey = pair.publicKey;
    this.#countsSignatures = options.countsSignatures ?? true;
    this.#aaguid = options.aaguid ? Buffer.from(options.aaguid.replaceAll("-", ""), "hex") : Buffer.alloc(16);
  }

  get id(): string {
    return this.credentialId.toString("base64url");
  }

  /** The public key as a COSE_Key (RFC 9053 §7.1.1): EC2, ES256, P-256, x and y. */
  #coseKey(): Buffer {
    const jwk = this.#publicKey.export({ format: "jwk" });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
  }

  #nextCounter(tweaks: CeremonyTweaks): number {
    if (tweaks.counter !== undefined) return tweaks.counter;
    if (this.#countsSignatures) this.counter += 1;
    return this.counter;
  }

  #clientData(type: string, challenge: string, tweaks: CeremonyTweaks): Buffer {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: tweaks.challenge ?? challenge,
        origin: tweaks.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** `navigator.credentials.create` as `@simplewebauthn/browser` reports it. */
  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    tweaks: CeremonyTweaks = {},
  ): RegistrationResponseJSON {
    this.userHandle = options.user.id;
    const rpId = tweaks.rpId ?? options.rp.id ?? "";
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.#nextCounter(tweaks));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authenticatorData = Buffer.concat([
      sha256(rpId),
      Buffer.from([tweaks.flags ?? flags.userPresent | flags.userVerified | flags.attestedCredential]),
      counter,
      this.#aaguid,
      idLength,
      this.credentialId,
      this.#coseKey(),
    ]);
    const attestationObject = cbor({ fmt: "none", attStmt: {}, authData: authenticatorData });
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: this.#clientData("webauthn.create", options.challenge, tweaks).toString("base64url"),
        attestationObject: attestationObject.toString("base64url"),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** `navigator.credentials.get` with this authenticator's passkey picked. */
  authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    tweaks: CeremonyTweaks = {},
  ): AuthenticationResponseJSON {
    const rpId = tweaks.rpId ?? options.rpId ?? "";
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.#nextCounter(tweaks));
    const authenticatorData = Buffer.concat([
      sha256(rpId),
      Buffer.from([tweaks.flags ?? flags.userPresent | flags.userVerified]),
      counter,
    ]);
    const clientDataJSON = this.#clientData("webauthn.get", options.challenge, tweaks);
    const signature = sign(
      "sha256",
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      this.#privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: clientDataJSON.toString("base64url"),
        authenticatorData: authenticatorData.toString("base64url"),
        signature: signature.toString("base64url"),
        userHandle: this.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }
}
