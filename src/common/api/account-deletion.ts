import { z } from "zod/mini";
import { typedText } from "./text.ts";
import { usernameOrEmailMaxLength } from "../limits.ts";

/**
 * `GET /account/deletion` and the answer of scheduling or cancelling it: what the person types to
 * confirm (their username or e-mail address, or the word DELETE for an account that has neither), and
 * when the account will be deleted, while that is pending.
 */
export const accountDeletionSchema = z.object({
  confirmWith: z.string(),
  /** How many days the account stays after it is asked to be deleted. */
  graceDays: z.int(),
  /** ISO 8601; absent while no deletion is pending. */
  dueAt: z.optional(z.string()),
});
export type AccountDeletion = z.infer<typeof accountDeletionSchema>;

/** `POST /account/delete`: the confirmation the person typed. */
export const accountDeleteBodySchema = z.strictObject({
  confirmation: typedText(usernameOrEmailMaxLength * 4),
});
