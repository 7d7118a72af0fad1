import { randomBytes, timingSafeEqual } from "node:crypto";
import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { KeyedHash } from "../secrets/keyed-hash.ts";

// A browser that has signed in to an account before is a known device of that account (OWASP's
// "device cookies"). Guesses and codes from it are limited on their own, apart from the account-wide
// ceilings, so that an attacker who keeps those full cannot lock the owner out of their own browser.
// The cookie names no account: it holds a random nonce and, per account, a keyed tag of the nonce and
// the account ID, which only this server can make.

const cookieName = "__Host-vrata.device";
const lifetimeMs = 400 * 24 * 60 * 60 * 1000;
/** Accounts one browser is remembered for; the oldest is forgotten first. */
const maxAccounts = 8;
const nonceBytes = 16;

export interface Device {
  nonce: string;
  tags: string[];
}

/** 128 bits of the keyed hash of nonce and account: as hard to forge, and a shorter cookie. */
const tagOf = (tag: KeyedHash, nonce: string, accountId: string) => tag(`${nonce}:${accountId}`).slice(0, 22);

/** The browser's device cookie, or a new device when it has none (or an unreadable one). */
export function deviceOf(request: FastifyRequest): Device {
  const [nonce = "", ...tags] = (request.cookies[cookieName] ?? "").split(".");
  if (
    !/^[\w-]{22}$/.test(nonce) ||
    tags.length > maxAccounts ||
    !tags.every((tag) => /^[\w-]{22}$/.test(tag))
  ) {
    return { nonce: randomBytes(nonceBytes).toString("base64url"), tags: [] };
  }
  return { nonce, tags };
}

/** Whether this browser signed in to the account before. */
export function isKnownDevice(key: KeyedHash, device: Device, accountId: string): boolean {
  const expected = Buffer.from(tagOf(key, device.nonce, accountId));
  return device.tags.some((tag) => {
    const presented = Buffer.from(tag);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  });
}

/** Remembers that this browser signed in to the account. */
export function rememberDevice(key: KeyedHash, reply: FastifyReply, device: Device, accountId: string): void {
  const tag = tagOf(key, device.nonce, accountId);
  const tags = [tag, ...device.tags.filter((known) => known !== tag)].slice(0, maxAccounts);
  reply.setCookie(cookieName, [device.nonce, ...tags].join("."), {
    path: "/",
    secure: true,
    httpOnly: true,
    sameSite: "lax",
    expires: new Date(Date.now() + lifetimeMs),
  });
}
