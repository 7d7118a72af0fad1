// Requests that really arrive at the same moment: the connections are opened first (one request each
// to a cheap page), so that the requests that count are not spread out one per handshake.

/** How many times the race tests send the same use at once. */
export const attempts = 12;

/** Opens `count` connections to the server at `base`, to be used by the next requests. */
export async function openConnections(base: string, count = attempts): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, async () =>
      (await fetch(`${base}/.well-known/openid-configuration`)).arrayBuffer(),
    ),
  );
}

/** Sends `send` `count` times at the same moment; the answers, in order, with their bodies read. */
export async function sentTogether(
  base: string,
  send: () => Promise<Response>,
  count = attempts,
): Promise<{ status: number; location: string | null; json: Record<string, unknown> | undefined }[]> {
  await openConnections(base, count);
  const responses = await Promise.all(Array.from({ length: count }, send));
  return Promise.all(
    responses.map(async (response) => {
      const text = await response.text();
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      return { status: response.status, location: response.headers.get("location"), json };
    }),
  );
}

/** The statuses of the answers, counted: `{ 200: 1, 409: 11 }`. */
export function statusCounts(answers: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
