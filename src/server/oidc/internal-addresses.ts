import { BlockList, isIP } from "node:net";

// Addresses Vrata does not call on an app's behalf unless the operator allows it
// (--backchannel-logout-private): a URI an app gives must not make Vrata reach services inside its own
// network. These are the special-purpose ranges of IANA's registries, so every address that is not
// globally reachable.

const internalIpv4: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network", and 0.0.0.0 itself
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata services among them
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.31.196.0", 24], // AS112
  ["192.52.193.0", 24], // AMT
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["192.175.48.0", 24], // AS112 direct delegation
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

const internalIpv6: readonly (readonly [string, number])[] = [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible addresses
  ["64:ff9b:1::", 48], // local-use IPv4/IPv6 translation
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["2620:4f:8000::", 48], // AS112
  ["3fff::", 20], // documentation
  ["5f00::", 16], // segment routing
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

/**
 * IPv6 prefixes whose addresses stand for an IPv4 address in their last 32 bits: IPv4-mapped, and the
 * well-known NAT64 prefix. Such an address is internal when its IPv4 address is.
 */
const ipv4Carriers = ["::ffff:", "64:ff9b::"];

const internal = new BlockList();
for (const [network, prefix] of internalIpv4) {
  internal.addSubnet(network, prefix, "ipv4");
  for (const carrier of ipv4Carriers) internal.addSubnet(carrier + network, 96 + prefix, "ipv6");
}
for (const [network, prefix] of internalIpv6) internal.addSubnet(network, prefix, "ipv6");

/** Whether the IP address (v4 or v6, in the forms the resolver gives) is one Vrata keeps off-limits. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  // Not an address at all: nothing that can be checked is ever let through.
  if (family === 0) return true;
  return internal.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Whether a URL's host names an internal address by itself: an IP literal (which URL parsing has
 * already turned into its one canonical spelling, whether written as 2130706433, 0x7f000001, 0177.1 or
 * [::ffff:127.0.0.1]), or localhost, which always means loopback (RFC 6761). Other names are checked
 * when they are resolved.
 */
export function namesInternalHost(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const literal = host.startsWith("[") ? host.slice(1, -1) : host;
  return isIP(literal) !== 0 && isInternalAddress(literal);
}
