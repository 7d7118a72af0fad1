import { isSealed, type Sealer } from "./sealing.ts";

/**
 * The plaintext of a secret read from the store. One that an earlier version stored in plain text is
 * sealed in its place, so upgrading leaves no readable copy behind.
 */
export async function openStoredSecret(
  sealer: Sealer,
  stored: string,
  context: string,
  replace: (sealed: string) => Promise<unknown>,
): Promise<string> {
  if (isSealed(stored)) return sealer.open(stored, context);
  await replace(sealer.seal(stored, context));
  return stored;
}
