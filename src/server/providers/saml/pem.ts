/** DER bytes in PEM armour, 64 base64 characters a line. */
export function toPem(label: string, der: ArrayBuffer | Uint8Array): string {
  const body = Buffer.from(der instanceof Uint8Array ? der : new Uint8Array(der))
    .toString("base64")
    .replace(/.{64}/g, "$&\n")
    .trimEnd();
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

/** The base64 body of a PEM document, without armour or line breaks. */
export const pemBody = (pem: string): string => pem.replace(/-----[^-]+-----|\s/g, "");
