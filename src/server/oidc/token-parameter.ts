import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import { Readable } from "node:stream";
import { bodyLimitBytes } from "../../common/limits.ts";
import { looksLikeJwt, type JwtAccessTokens } from "./jwt-access-tokens.ts";

export type RawRequest = IncomingMessage | Http2ServerRequest;

/** A body that cannot be read; the OAuth endpoints answer it as the engine would, `invalid_request`. */
export class UnreadableBody extends Error {
  override name = "UnreadableBody";
  readonly statusCode: number;

  constructor(statusCode: number, message: string) {
    super(message);
    this.statusCode = statusCode;
  }
}

/** Stands in for a JWT that is not Vrata's or no longer stands for a token: the engine finds nothing. */
const unknownToken = "unknown";

// A function rather than one error made up front: an error's stack trace costs more than the rest of
// reading a small body.
const tooLarge = () => new UnreadableBody(413, "the request body is too large");

async function readBody(request: RawRequest): Promise<Buffer> {
  if (Number(request.headers["content-length"] ?? 0) > bodyLimitBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > bodyLimitBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    throw error instanceof UnreadableBody
      ? error
      : new UnreadableBody(400, "the request body could not be read");
  }
  return Buffer.concat(chunks, size);
}

/** The same request head with a body that has already been read (and perhaps changed). */
function withBody(original: RawRequest, body: Buffer): RawRequest {
  const replayed = Readable.from([body], { objectMode: false });
  return Object.assign(replayed, {
    method: original.method,
    url: original.url,
    headers: { ...original.headers, "content-length": String(body.length) },
    socket: original.socket,
    httpVersion: original.httpVersion,
    httpVersionMajor: original.httpVersionMajor,
    httpVersionMinor: original.httpVersionMinor,
  }) as unknown as RawRequest;
}

/**
 * The engine refuses JWTs at introspection and revocation. A JWT access token of Vrata's stands for an
 * opaque token, so the request's `token` parameter becomes that token before the engine reads it;
 * client authentication and every other check stay the engine's.
 */
export async function withOpaqueTokenParameter(
  request: RawRequest,
  tokens: JwtAccessTokens,
): Promise<RawRequest> {
  const form = request.headers["content-type"]?.startsWith("application/x-www-form-urlencoded") ?? false;
  if (!form) return request;
  const body = await readBody(request);
  const parameters = new URLSearchParams(body.toString("utf8"));
  const [token, ...more] = parameters.getAll("token");
  if (token === undefined || more.length > 0 || !looksLikeJwt(token)) return withBody(request, body);
  parameters.set("token", (await tokens.opaqueTokenOf(token)) ?? unknownToken);
  return withBody(request, Buffer.from(parameters.toString()));
}
