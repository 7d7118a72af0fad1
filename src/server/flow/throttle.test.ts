import { describe, expect, it } from "vitest";
import { addressKey, codeSendBuckets, guessBuckets } from "./throttle.ts";

describe("what limits count by", () => {
  it("counts an IPv6 client by its /64, and an IPv4 one by its address however it is written", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });

  it("holds a browser the account knows to its own allowance, apart from the account's ceilings", () => {
    const subject = { flowId: "f", address: "203.0.113.7", accountId: "a" };
    const unknown = guessBuckets("password", subject).map((bucket) => bucket.key);
    const known = guessBuckets("password", { ...subject, knownDevice: "n" }).map((bucket) => bucket.key);
    expect(unknown).toHaveLength(4);
    expect(known).toHaveLength(2);
    expect(known[0]).toBe(unknown[0]);
    expect(unknown).not.toContain(known[1]);
    expect(guessBuckets("code", subject).map((bucket) => bucket.key)[3]).not.toBe(unknown[3]);
    // A passkey's signature cannot be guessed: no account-wide ceiling for anyone to fill.
    expect(guessBuckets("passkey", subject).map((bucket) => bucket.key)).toEqual(unknown.slice(0, 3));

    const recipients = ["Owner@Example.com"];
    expect(codeSendBuckets("203.0.113.7", recipients, { id: "a", knownDevice: "n" })).toHaveLength(1);
    expect(codeSendBuckets("203.0.113.7", recipients, { id: "a", knownDevice: undefined })).toHaveLength(3);
    // A recipient is one mailbox however its address is capitalized.
    expect(codeSendBuckets("203.0.113.7", ["owner@example.com"]).at(-1)?.key).toBe(
      codeSendBuckets("203.0.113.8", recipients).at(-1)?.key,
    );
  });
});
