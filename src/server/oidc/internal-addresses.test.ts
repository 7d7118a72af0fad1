import { describe, expect, it } from "vitest";
import { internalHostSpellings } from "../../../test/support/internal-hosts.ts";
import { checkedAddresses, InternalAddressRefused, type ResolveHost } from "./app-fetch.ts";
import { isInternalAddress, namesInternalHost } from "./internal-addresses.ts";

describe("internal addresses", () => {
  it("are the special-purpose ranges, at their edges, and addresses that carry one", () => {
    const internal = [
      "0.0.0.0",
      "0.255.255.255",
      "10.0.0.0",
      "10.255.255.255",
      "100.64.0.0",
      "100.127.255.255",
      "127.0.0.1",
      "127.255.255.254",
      "169.254.169.254",
      "172.16.0.0",
      "172.31.255.255",
      "192.0.0.8",
      "192.0.2.1",
      "192.88.99.1",
      "192.168.0.1",
      "198.18.0.1",
      "198.19.255.255",
      "198.51.100.7",
      "203.0.113.9",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::127.0.0.1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      "::ffff:10.0.0.1",
      "64:ff9b::127.0.0.1",
      "64:ff9b::a00:1",
      "64:ff9b:1::1",
      "100::1",
      "2001::1",
      "2001:db8::1",
      "2002:7f00:1::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "febf::1",
      "fec0::1",
      "ff02::1",
      "not an address",
    ];
    const external = [
      "1.1.1.1",
      "9.255.255.255",
      "11.0.0.0",
      "100.63.255.255",
      "100.128.0.0",
      "172.15.255.255",
      "172.32.0.0",
      "192.167.255.255",
      "192.169.0.0",
      "198.17.255.255",
      "198.20.0.0",
      "223.255.255.255",
      "::ffff:1.1.1.1",
      "64:ff9b::101:101",
      "2001:200::1",
      "2606:4700::1111",
      "2a00:1450::1",
    ];
    expect(internal.filter((address) => !isInternalAddress(address))).toEqual([]);
    expect(external.filter((address) => isInternalAddress(address))).toEqual([]);
  });

  it("are named by a URL's host in every spelling URLs allow, and by localhost", () => {
    const host = (name: string) => new URL(`https://${name}:8443/logout`);
    expect(internalHostSpellings.filter((name) => !namesInternalHost(host(name)))).toEqual([]);
    for (const name of ["app.example", "localhost.example", "1.1.1.1", "[2606:4700::1111]"]) {
      expect(namesInternalHost(host(name)), name).toBe(false);
    }
  });
});

describe("the addresses a call may connect to", () => {
  const answering =
    (...addresses: string[]): ResolveHost =>
    () =>
      Promise.resolve(addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));

  it("are refused when any address the name resolves to is internal", async () => {
    for (const answer of [["1.1.1.1", "127.0.0.1"], ["2606:4700::1111", "fd00::1"], ["169.254.169.254"]]) {
      const resolveHost = answering(...answer);
      await expect(
        checkedAddresses("app.example", { reachInternal: false, resolveHost }, undefined),
        answer.join(" "),
      ).rejects.toBeInstanceOf(InternalAddressRefused);
    }
    const literal = checkedAddresses(
      "::ffff:7f00:1",
      { reachInternal: false, resolveHost: answering() },
      undefined,
    );
    await expect(literal).rejects.toBeInstanceOf(InternalAddressRefused);
  });

  it("are every address the name resolves to when none is internal, or when internal ones are allowed", async () => {
    const external = answering("1.1.1.1", "2606:4700::1111");
    expect(
      await checkedAddresses("app.example", { reachInternal: false, resolveHost: external }, undefined),
    ).toEqual([
      { address: "1.1.1.1", family: 4 },
      { address: "2606:4700::1111", family: 6 },
    ]);
    const loopback = answering("127.0.0.1");
    expect(
      await checkedAddresses("app.example", { reachInternal: true, resolveHost: loopback }, undefined),
    ).toEqual([{ address: "127.0.0.1", family: 4 }]);
  });

  it("are not waited for past the call's time limit", async () => {
    const never: ResolveHost = () => new Promise(() => {});
    const call = checkedAddresses(
      "app.example",
      { reachInternal: false, resolveHost: never },
      AbortSignal.timeout(10),
    );
    await expect(call).rejects.toMatchObject({ name: "TimeoutError" });
  });
});
