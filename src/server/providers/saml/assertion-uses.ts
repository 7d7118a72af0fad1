import type { KeyedHash } from "../../secrets/keyed-hash.ts";
import type { Database } from "../../store/database.ts";
import { recordSamlAssertionUse } from "../../store/saml-assertions.ts";
import type { ConfirmedAssertion } from "./confirmation.ts";

/** Records an accepted assertion of the IdP `issuer`; false when it was accepted before and not expired. */
export type RecordAssertionUse = (issuer: string, assertion: ConfirmedAssertion) => Promise<boolean>;

/**
 * Keeps the assertions accepted in the store, each under a keyed hash of its IdP and ID (an ID is
 * unique only for the IdP that made it), until it expires.
 */
export const assertionUsesIn =
  (db: Database, hash: KeyedHash): RecordAssertionUse =>
  (issuer, { id, expiresAt }) =>
    recordSamlAssertionUse(db, hash(`${issuer}\n${id}`), expiresAt, Date.now());
