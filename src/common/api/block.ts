import { z } from "zod/mini";
import { blockNoteMaxLength } from "../limits.ts";
import { organizationIdentitySchema } from "./organization.ts";
import { typedText } from "./text.ts";

// Blocks (spec §2 block-user page): an organization's admins block one of its identities, or the
// identity and every other identity of the people behind it. A block is a record that can be lifted.

export const blockScopes = ["identity", "identityAndAccounts"] as const;
export type BlockScope = (typeof blockScopes)[number];

const note = () => z._default(typedText(blockNoteMaxLength), "");

/** `POST /api/o/block/{id}/{identityId}`: block with a scope and notes, or lift the block in force. */
export const blockRequestSchema = z.union([
  z.strictObject({ scope: z.enum(blockScopes), adminNote: note(), userNote: note() }),
  z.strictObject({ unblock: z.literal(true) }),
]);
export type BlockRequest = z.infer<typeof blockRequestSchema>;

/** A block as the organization's admins see it; never the accounts it covers. */
export const blockRecordSchema = z.object({
  scope: z.enum(blockScopes),
  adminNote: z.string(),
  userNote: z.string(),
  /** The admin identity that blocked, and its name when it still exists. */
  blockedBy: z.object({ id: z.string(), name: z.optional(z.string()) }),
  createdAt: z.string(),
});
export type BlockRecord = z.infer<typeof blockRecordSchema>;

/** `GET /api/o/block/{id}/{identityId}`: the identity as the organization sees it and its block in force. */
export const blockPageSchema = z.object({
  identity: organizationIdentitySchema,
  block: z.nullable(blockRecordSchema),
});
export type BlockPage = z.infer<typeof blockPageSchema>;

/**
 * `GET /api/o/blocked/{id}/{identityId}`: for the organization's admins and for the blocked person;
 * only admins get the note for admins.
 */
export const blockStatusSchema = z.object({
  blocked: z.boolean(),
  scope: z.optional(z.enum(blockScopes)),
  userNote: z.optional(z.string()),
  adminNote: z.optional(z.string()),
  createdAt: z.optional(z.string()),
});
export type BlockStatus = z.infer<typeof blockStatusSchema>;
