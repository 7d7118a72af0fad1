import type { z } from "zod";
import { HttpError } from "./errors.ts";

/** The request body checked against the route's schema; anything else is a 400 with the reason. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw new HttpError(400, "badRequest", `${where}${issue?.message ?? "invalid body"}`);
  }
  return result.data;
}
