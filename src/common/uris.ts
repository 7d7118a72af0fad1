function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d+){3}$/.test(hostname);
}

/**
 * An absolute https URI without a fragment or credentials; plain http only on loopback. The rule for
 * redirect URIs, homepages and pictures.
 */
export function isSecureUri(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.hash || url.username || url.password) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname));
}
