import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import { Readable } from "node:stream";
import { bodyLimitBytes } from "../../common/limits.ts";

export type RawRequest = IncomingMessage | Http2ServerRequest;

/** A request the OAuth endpoints refuse before the engine sees it, as the engine would: `invalid_request`. */
export class InvalidRequest extends Error {
  override name = "InvalidRequest";
  readonly statusCode: number;

  constructor(statusCode: number, message: string) {
    super(message);
    this.statusCode = statusCode;
  }
}

// A function rather than one error made up front: an error's stack trace costs more than the rest of
// reading a small body.
const tooLarge = () => new InvalidRequest(413, "the request body is too large");

const unreadable = () => new InvalidRequest(400, "the request body could not be read");

/**
 * The whole body, read through the stream's events: an async iterator over a small form costs about
 * twice as much. Too large a body is answered at once, and what more of it comes is discarded.
 */
function readBody(request: RawRequest): Promise<Buffer> {
  if (Number(request.headers["content-length"] ?? 0) > bodyLimitBytes) return Promise.reject(tooLarge());
  if (request.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (request.destroyed) return Promise.reject(unreadable());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: InvalidRequest) => {
      request.off("data", take);
      request.off("end", end);
      request.off("error", fail);
      request.off("close", fail);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const end = () => settle();
    // Closed before its end: the client went away or the stream failed.
    const fail = () => settle(unreadable());
    const take = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= bodyLimitBytes) {
        chunks.push(chunk);
        return;
      }
      settle(tooLarge());
    };
    request.on("data", take);
    request.once("end", end);
    request.once("error", fail);
    request.once("close", fail);
  });
}

const noMore = () => undefined;

/** The same request head with a body that has already been read (and perhaps changed). */
function withBody(original: RawRequest, body: Buffer): RawRequest {
  // A stream that holds the body from the start: Readable.from would pull it through an iterator.
  const replayed = new Readable({ read: noMore });
  replayed.push(body);
  replayed.push(null);
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
 * PostgreSQL's text cannot hold a NUL, so a parameter with one could only fail in the store; nothing
 * the engine looks up has one, so it is refused up front. (Invalid UTF-8 cannot get through: decoding
 * a form turns it into U+FFFD.)
 */
function refuseNul(parameters: URLSearchParams): void {
  for (const [name, value] of parameters)
    if (value.includes("\u0000") || name.includes("\u0000"))
      throw new InvalidRequest(400, `the ${name.replaceAll("\u0000", "")} parameter contains a NUL`);
}

/** Changes a form's parameters before the engine reads them; says whether it changed any. */
export type FormRewrite = (parameters: URLSearchParams) => Promise<boolean>;

const isForm = (request: RawRequest) =>
  request.headers["content-type"]?.startsWith("application/x-www-form-urlencoded") ?? false;

/** The parameters of a form body, checked as the engine's are. Throws `InvalidRequest` for another body. */
export async function formParameters(request: RawRequest): Promise<URLSearchParams> {
  if (!isForm(request)) throw new InvalidRequest(400, "the request body must be a form");
  const parameters = new URLSearchParams((await readBody(request)).toString("utf8"));
  refuseNul(parameters);
  return parameters;
}

/**
 * The request as the engine gets it: its query and form parameters checked, and the form rewritten
 * when the route asks for that. Throws `InvalidRequest` for what the engine must not see.
 */
export async function engineRequest(request: RawRequest, rewrite?: FormRewrite): Promise<RawRequest> {
  const url = request.url ?? "";
  const query = url.indexOf("?");
  if (query >= 0) refuseNul(new URLSearchParams(url.slice(query + 1)));
  if (!isForm(request)) return request;
  const body = await readBody(request);
  const parameters = new URLSearchParams(body.toString("utf8"));
  refuseNul(parameters);
  const changed = rewrite ? await rewrite(parameters) : false;
  return withBody(request, changed ? Buffer.from(parameters.toString()) : body);
}
