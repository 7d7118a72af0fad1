import { hash, verify, type Algorithm } from "@node-rs/argon2";

// argon2id with OWASP's minimum parameters (design.md §2). The library hashes on its own threads, so
// the event loop keeps serving other requests meanwhile.
// The library's Algorithm is a const enum, which type stripping cannot inline; 2 is its Argon2id.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
const argon2id = 2 as Algorithm;
const parameters = { algorithm: argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, parameters);
}

export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  try {
    return await verify(phc, password);
  } catch {
    return false;
  }
}

/** A stored hash made with weaker parameters than today's is replaced on the next sign-in. */
export function needsRehash(phc: string): boolean {
  return !phc.startsWith(
    `$argon2id$v=19$m=${parameters.memoryCost},t=${parameters.timeCost},p=${parameters.parallelism}$`,
  );
}
