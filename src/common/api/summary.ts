import { z } from "zod/mini";

/** A listed template or organization as everybody may see it; `canUpdate` marks the caller's own. */
export const documentSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  canUpdate: z.boolean(),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;
export const documentListSchema = z.array(documentSummarySchema);

/**
 * In the answer about one template or organization to a signed-in caller who is not among its admins:
 * the IDs of the identities the caller administers that are (empty when none is).
 */
export const ownAdminIdentitiesSchema = z.optional(z.array(z.string()));
