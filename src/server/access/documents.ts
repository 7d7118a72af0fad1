import type { DocumentSummary } from "../../common/api/summary.ts";
import { HttpError } from "../http/errors.ts";
import type { Database } from "../store/database.ts";
import { findIdentities } from "../store/identities.ts";
import type { Caller } from "./caller.ts";

// The admin rules of documents (templates, organizations): their `admins` are identities, and a
// console caller acts as the identity it signed in with.

/** Whether the caller's console identity is one of a document's admins. */
export function isAdmin(caller: Caller | undefined, admins: readonly string[]): boolean {
  return caller?.identityId !== undefined && admins.includes(caller.identityId);
}

/** Of the listed documents, the IDs of those whose admins include the caller's console identity. */
export function adminListed(
  listed: readonly { id: string; document: { admins: string[] } }[],
  caller: Caller | undefined,
): Set<string> {
  return new Set(listed.filter(({ document }) => isAdmin(caller, document.admins)).map(({ id }) => id));
}

/** Listed templates or organizations as everybody sees them, marking those the caller administers. */
export function summaries(
  listed: readonly { id: string; document: { name: string; description: string } }[],
  administered: ReadonlySet<string>,
): DocumentSummary[] {
  return listed.map(({ id, document }) => ({
    id,
    name: document.name,
    description: document.description,
    canUpdate: administered.has(id),
  }));
}

/** The identity a console caller acts as; creating and editing need one. */
export function actingIdentity(caller: Caller): string {
  if (!caller.identityId) throw new HttpError(401, "unauthorized", "sign in to the console first");
  return caller.identityId;
}

/** Admins must be existing identities, and the editing identity always stays one. */
export async function checkedAdmins(
  db: Database,
  admins: readonly string[],
  editor: string,
): Promise<string[]> {
  const wanted = [...new Set([editor, ...admins])];
  const found = new Set((await findIdentities(db, wanted)).map((identity) => identity.id));
  const unknown = wanted.filter((id) => !found.has(id));
  if (unknown.length > 0) throw new HttpError(400, "unknownIdentity", `no identity ${unknown.join(", ")}`);
  return wanted;
}
