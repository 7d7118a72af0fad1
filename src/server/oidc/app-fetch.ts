import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as WebStream } from "node:stream/web";
import type { Configuration } from "oidc-provider";
import { isInternalAddress } from "./internal-addresses.ts";

// How the engine calls apps (back-channel logout). A host name is resolved once, every address it
// resolves to is checked, and the connection is made to those addresses only: the connection makes
// no lookup of its own, so a name whose answer changes between the check and the connection (DNS
// rebinding) still reaches only what was checked. TLS still verifies the certificate for the name.

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to. */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system's resolver, as connections use it by default (hosts file, then DNS). */
export const systemResolver: ResolveHost = (hostname) => lookup(hostname, { all: true, order: "verbatim" });

/** Where Vrata may call apps. */
export interface AppAddresses {
  /** Apps on loopback, private and other internal addresses may be called (--backchannel-logout-private). */
  reachInternal: boolean;
  resolveHost: ResolveHost;
}

/** A call refused because its host is, or resolves to, an internal address. */
export class InternalAddressRefused extends Error {
  override name = "InternalAddressRefused";
}

/** Statuses whose answers have no body, which a Response must be made without. */
const withoutBody = new Set([101, 103, 204, 205, 304]);

/** The work, unless the signal aborts first. */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** The addresses a call to `hostname` may connect to, once checked; refused when any is internal. */
export async function checkedAddresses(
  hostname: string,
  { reachInternal, resolveHost }: AppAddresses,
  signal: AbortSignal | null | undefined,
): Promise<readonly ResolvedAddress[]> {
  const family = isIP(hostname);
  const addresses = family
    ? [{ address: hostname, family }]
    : await unlessAborted(resolveHost(hostname), signal);
  if (addresses.length === 0) throw new Error(`${hostname} resolves to no address`);
  const refused = reachInternal ? undefined : addresses.find(({ address }) => isInternalAddress(address));
  if (refused) {
    throw new InternalAddressRefused(
      `${hostname} resolves to ${refused.address}, an internal address that back-channel logout does not reach`,
    );
  }
  return addresses;
}

/** A lookup that answers with the checked addresses, whatever name it is asked for. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const usable = addresses.filter(({ family }) => !options.family || family === options.family);
    const [first] = usable;
    if (!first) {
      callback(
        Object.assign(new Error("no checked address of the family asked for"), { code: "ENOTFOUND" }),
        "",
      );
    } else if (options.all) {
      callback(null, [...usable]);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

/** The app's answer as fetch gives it. */
function asResponse(answer: http.IncomingMessage): Response {
  const headers = new Headers();
  for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
    headers.append(answer.rawHeaders[index] ?? "", answer.rawHeaders[index + 1] ?? "");
  }
  const status = answer.statusCode ?? 0;
  if (withoutBody.has(status)) {
    answer.resume();
    return new Response(null, { status, headers });
  }
  const body = Readable.toWeb(answer) as WebStream<Uint8Array> as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}

/** Sends the request to the checked addresses only. */
async function send(url: URL, addresses: readonly ResolvedAddress[], init: RequestInit): Promise<Response> {
  const body = init.body == null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
  const headers = Object.fromEntries(new Headers(init.headers));
  if (body) headers["content-length"] = String(body.length);
  const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(
      url,
      {
        method: init.method ?? "GET",
        headers,
        lookup: pinnedLookup(addresses),
        // A connection of its own: none made for an earlier check is reused.
        agent: false,
        ...(init.signal ? { signal: init.signal } : {}),
      },
      resolve,
    );
    request.on("error", reject);
    request.end(body);
  });
  try {
    return asResponse(answer);
  } catch (error) {
    answer.destroy();
    throw error;
  }
}

/**
 * The engine's fetch: it reaches an app only at addresses checked as above, and keeps the engine's
 * own request options (its time limit among them); the engine's own check, made after connecting,
 * is replaced by this one, made before.
 */
export function appFetch(addresses: AppAddresses): NonNullable<Configuration["fetch"]> {
  return async (target, init = {}) => {
    if (target instanceof Request) throw new TypeError("the engine gives a URL and its options");
    const url = new URL(target);
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new Error(`${url.protocol} is not a protocol for calling apps`);
    }
    const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const checked = await checkedAddresses(hostname, addresses, init.signal);
    return send(url, checked, init);
  };
}
