/**
 * Hosts of URLs that name an internal address by themselves, in the spellings URLs allow: loopback
 * written in decimal, hex, octal and short forms, the unspecified address, private and link-local
 * ranges, IPv6 and IPv4-mapped or -compatible IPv6, and localhost.
 */
export const internalHostSpellings = [
  "127.0.0.1",
  "2130706433",
  "0x7f000001",
  "0x7F.1",
  "0177.0.0.1",
  "017700000001",
  "127.1",
  "127.0.0.1.",
  "0",
  "0.0.0.0",
  "10.1.2.3",
  "172.16.0.1",
  "192.168.1.1",
  "100.64.0.1",
  "169.254.169.254",
  "224.0.0.1",
  "[::]",
  "[::1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[0:0:0:0:0:ffff:127.0.0.1]",
  "[::127.0.0.1]",
  "[64:ff9b::127.0.0.1]",
  "[fd00::1]",
  "[fe80::1]",
  "[ff02::1]",
  "localhost",
  "LOCALHOST.",
  "app.localhost",
] as const;
