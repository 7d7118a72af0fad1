import type { Duplex } from "node:stream";
import type { FastifyError, FastifyInstance } from "fastify";
import type { ErrorBody, ErrorCode } from "../../common/api/errors.ts";
import type { PageError } from "../../common/api/page-error.ts";
import { asksForPage, sendWebPage, type RenderIndex } from "./web-page.ts";
import { connectionFailureReason, isStoreUnavailable } from "../store/errors.ts";

/** Which field of the request an error is about, what it names there, or which check it failed. */
export type ErrorDetails = Pick<ErrorBody, "field" | "values" | "reason">;

/** What an error page shows besides the code: whose answer was refused, and where the person goes on. */
export type PageDetails = Pick<PageError, "provider" | "resume">;

/** An error the client caused or must know about: its status and stable code go out as they are. */
export class HttpError extends Error {
  override name = "HttpError";
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  readonly page: PageDetails;

  constructor(
    statusCode: number,
    code: ErrorCode,
    message: string,
    details: ErrorDetails = {},
    page: PageDetails = {},
  ) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
    this.page = page;
  }
}

/** Too much at once: answered 429 with a `Retry-After` header. */
export class TooManyRequestsError extends HttpError {
  override name = "TooManyRequestsError";
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(429, "tooManyRequests", message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const codeForStatus: Partial<Record<number, ErrorCode>> = {
  400: "badRequest",
  404: "notFound",
  405: "methodNotAllowed",
  413: "payloadTooLarge",
  415: "unsupportedMediaType",
};

/** Seconds a client is asked to wait when the store does not answer: about what a database restart takes. */
const storeRetryAfterSeconds = 5;

function bodyFor(error: FastifyError | HttpError, requestId: string): { status: number; body: ErrorBody } {
  if (isStoreUnavailable(error))
    return {
      status: 503,
      body: { error: "storeUnavailable", message: "The database does not answer; try again shortly." },
    };
  if (error instanceof HttpError)
    return {
      status: error.statusCode,
      body: { error: error.code, message: error.message, ...error.details },
    };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, body too large, wrong content type, failed validation).
    return { status, body: { error: codeForStatus[status] ?? "badRequest", message: error.message } };
  }
  return { status: 500, body: { error: "unexpected", message: "Unexpected error.", requestId } };
}

/**
 * Every error leaves as `{"error": code, "message": detail}`; only faults of ours are 500s, and logged.
 * A browser loading a page gets the web app's error page instead, with the same status and code.
 */
export function registerErrorHandlers(app: FastifyInstance, renderIndex: RenderIndex): void {
  app.setErrorHandler<FastifyError | HttpError>(async (error, request, reply) => {
    const { status, body } = bodyFor(error, request.id);
    if (error instanceof TooManyRequestsError) reply.header("retry-after", String(error.retryAfterSeconds));
    if (body.error === "storeUnavailable") {
      reply.header("retry-after", String(storeRetryAfterSeconds));
      request.log.warn({ cause: connectionFailureReason(error) }, "the database does not answer");
    } else if (status >= 500 && !(error instanceof HttpError))
      request.log.error({ err: error }, "request failed");
    reply.status(status);
    if (asksForPage(request)) {
      const pageError: PageError = {
        error: body.error,
        ...(body.requestId ? { requestId: body.requestId } : {}),
        ...(body.reason ? { reason: body.reason } : {}),
        ...(error instanceof HttpError ? error.page : {}),
      };
      return sendWebPage(request, reply, renderIndex, pageError);
    }
    return reply.type("application/json").send(body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    // The same path answers a page or JSON by what the request accepts: caches must keep both apart.
    reply.status(404).header("vary", "accept");
    if (asksForPage(request)) return sendWebPage(request, reply, renderIndex, { error: "notFound" });
    return reply.send({
      error: "notFound",
      message: `no route for ${request.method} ${request.url.split("?")[0] ?? ""}`,
    });
  });
}

/**
 * A request Node cannot parse at all (a method HTTP does not have, a broken header line) never reaches
 * Fastify's handlers; it still gets a JSON error with a stable code before the connection closes.
 */
export function refuseUnparsableRequest(_error: Error, socket: Duplex): void {
  if (!socket.writable) return;
  const body = JSON.stringify({ error: "badRequest", message: "the request could not be parsed" });
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
