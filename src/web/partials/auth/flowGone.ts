import { createContext } from "react";
import { ApiError } from "../../api.ts";

/**
 * The error of a step's call that failed because the flow is no longer there for this browser: it
 * expired or never existed (`notFound`), or it continues in another browser (`unauthorized`). The
 * page then says so in place of the step, as it does when the flow cannot be loaded.
 */
export const flowGoneError = (error: unknown): ApiError | undefined =>
  error instanceof ApiError && (error.code === "notFound" || error.code === "unauthorized")
    ? error
    : undefined;

/** Replaces the flow's steps with the page that says why the flow is gone. */
export const FlowGoneContext = createContext<(error: ApiError) => void>(() => undefined);
