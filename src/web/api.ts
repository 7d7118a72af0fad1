import { queryOptions, useSuspenseQuery } from "@tanstack/react-query";
import type { z } from "zod/mini";
import { contextSchema, type Context } from "../common/api/context.ts";
import { errorBodySchema } from "../common/api/errors.ts";
import { flowResponseSchema, type FlowResponse } from "../common/api/flow.ts";
import { routes } from "../common/routes.ts";
import type { catalogs } from "./i18n/catalogs.ts";
import { textExists, type TFunction } from "./i18n/index.ts";
import { getAccessToken } from "./session.ts";

/** A failed call, with the stable error code the UI translates as `errors.<code>`. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly code: string;
  /** HTTP status, or 0 when there was no usable HTTP response. */
  readonly status: number;
  /** The request's field the server says the error is about (a dotted path), when it says one. */
  readonly field: string | undefined;
  /** What the error names (e.g. unknown variables), for its message. */
  readonly values: readonly string[] | undefined;
  /** For a fault of the server: the ID its log names the request by, which the page shows. */
  readonly requestId: string | undefined;

  constructor(
    code: string,
    status: number,
    message?: string,
    details: {
      field?: string | undefined;
      values?: readonly string[] | undefined;
      requestId?: string | undefined;
    } = {},
  ) {
    super(message ?? code);
    this.code = code;
    this.status = status;
    this.field = details.field;
    this.values = details.values;
    this.requestId = details.requestId;
  }
}

/**
 * A 400 answer that carries the flow's state (design.md §4): `flow.error` names a mistake the person
 * can correct at the current step; without it the step failed as a whole (e.g. too many attempts).
 */
export class FlowStateError extends ApiError {
  override name = "FlowStateError";
  readonly flow: FlowResponse;

  constructor(flow: FlowResponse, status: number) {
    super(flow.error ?? "badRequest", status);
    this.flow = flow;
  }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

/** Sends a same-origin request and validates its JSON answer; every failure becomes an {@link ApiError}. */
async function requestJson<T>(
  path: string,
  init: { method: "GET" | "POST"; body?: string; signal?: AbortSignal | undefined },
  schema: z.ZodMiniType<T>,
): Promise<T> {
  const headers = new Headers({ Accept: "application/json" });
  if (init.body !== undefined) headers.set("Content-Type", "application/json");
  const accessToken = getAccessToken(new URL(path, window.location.origin).pathname);
  if (accessToken) headers.set("Authorization", `Bearer ${accessToken}`);

  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method,
      headers,
      body: init.body ?? null,
      signal: init.signal ?? null,
      credentials: "same-origin",
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    // No HTTP answer at all: the network or the server is down, which the person is told as such.
    throw new ApiError("unreachable", 0, error instanceof Error ? error.message : undefined);
  }

  const body = await readJson(response);
  if (!response.ok) {
    // A step's mistake (400) or a limit that refused it (429) comes with the flow's state.
    if (response.status === 400 || response.status === 429) {
      const flow = flowResponseSchema.safeParse(body);
      if (flow.success) throw new FlowStateError(flow.data, response.status);
    }
    const errorBody = errorBodySchema.safeParse(body);
    if (errorBody.success) {
      const { error, message, field, values, requestId } = errorBody.data;
      throw new ApiError(error, response.status, message, { field, values, requestId });
    }
    throw new ApiError("unexpectedStatusCode", response.status);
  }
  if (body === undefined) throw new ApiError("responseIsNotJson", response.status);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError("invalidResponse", response.status, parsed.error.message);
  return parsed.data;
}

/** GETs a same-origin JSON document and validates it; every failure becomes an {@link ApiError}. */
export function getJson<T>(path: string, schema: z.ZodMiniType<T>, signal?: AbortSignal): Promise<T> {
  return requestJson(path, { method: "GET", signal }, schema);
}

/** POSTs JSON to a same-origin API route and validates the answer; failures as in {@link getJson}. */
export function postJson<T>(path: string, body: unknown, schema: z.ZodMiniType<T>): Promise<T> {
  return requestJson(path, { method: "POST", body: JSON.stringify(body) }, schema);
}

type ErrorCodeWithMessage = keyof (typeof catalogs)["en"]["errors"];

function hasMessage(code: string): code is ErrorCodeWithMessage {
  return textExists(`errors.${code}`);
}

/**
 * The translated message for an error code, falling back to the generic one for unknown codes; the
 * values the error names (e.g. unknown variables) go into it.
 */
export function errorMessage(t: TFunction, code: string, values: readonly string[] = []): string {
  return hasMessage(code) ? t(`errors.${code}`, { values: values.join(", ") }) : t("errors.unexpected");
}

/**
 * Retry policy of queries: a refusal (4xx, e.g. not found or not signed in) is an answer and is shown
 * at once; a network failure or a server fault is retried twice.
 */
export function retryUnlessRefused(failures: number, error: unknown): boolean {
  const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
  return !refused && failures < 2;
}

export const contextQuery = queryOptions({
  queryKey: ["context"],
  queryFn: ({ signal }) => getJson(routes.Context.path, contextSchema, signal),
  // The server builds the context once at start-up.
  staleTime: "static",
  retry: 1,
});

/** The context document, for components rendered only once it has loaded (see Layout). */
export function useSiteContext(): Context {
  return useSuspenseQuery(contextQuery).data;
}
