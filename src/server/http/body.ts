import type { z } from "zod/mini";
import "../validation-messages.ts";
import { HttpError } from "./errors.ts";

/** The request body checked against the route's schema; anything else is a 400 with the reason. */
export function parseBody<T>(schema: z.ZodMiniType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.length ? issue.path.join(".") : undefined;
    throw new HttpError(
      400,
      "badRequest",
      `${field ? `${field}: ` : ""}${issue?.message ?? "invalid body"}`,
      field ? { field } : {},
    );
  }
  return result.data;
}
