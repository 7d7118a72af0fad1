import type { z } from "zod/mini";

/** A value stored as JSON under `key`, if it is there and of the schema's shape. */
export function readStored<T>(storage: Storage, key: string, schema: z.ZodMiniType<T>): T | null {
  const stored = storage.getItem(key);
  if (stored === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The same, removed from the storage: an entry that may be used once. */
export function takeStored<T>(storage: Storage, key: string, schema: z.ZodMiniType<T>): T | null {
  const value = readStored(storage, key, schema);
  storage.removeItem(key);
  return value;
}
