import type { SignUpNameError } from "../../common/api/flow.ts";
import type { IdentityFields } from "../../common/api/identity.ts";
import { identityNameMaxLength } from "../../common/limits.ts";
import { normalizeIdentifier } from "./normalize.ts";

// A sign-up that proves no username or e-mail address (a passkey) asks the person what to call them:
// one field for a username or a name, and an e-mail address if they like. Nothing here looks at other
// accounts or identities: the answer is the same whether or not someone else uses what was typed.

const spaces = /[\s\p{Zs}]+/gu;
/** What cannot be shown as part of a name: control and format characters, line and paragraph breaks. */
const unshowable = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * The first identity of the new account. One word is a username, held to the rules of a username
 * typed to sign up; several words are the person's name, as others will see it. The e-mail address
 * follows the rules of one typed to sign up; it is the identity's, not a way to sign in to the account.
 */
export function signUpIdentity(typed: {
  name: string;
  email?: string | undefined;
}): IdentityFields | SignUpNameError {
  const name = typed.name.normalize("NFC").replace(spaces, " ").trim();
  if (name === "") return "missingName";
  const identity: IdentityFields = {};
  if (name.includes(" ")) {
    if (unshowable.test(name) || name.length > identityNameMaxLength) return "invalidName";
    identity.fullName = name;
  } else {
    const username = normalizeIdentifier(name);
    if (username === "short") return "shortUsername";
    if (username === "invalid" || username.kind !== "username") return "invalidUsername";
    identity.username = username.display;
  }
  const typedEmail = typed.email?.trim() ?? "";
  if (typedEmail !== "") {
    const email = normalizeIdentifier(typedEmail);
    if (typeof email === "string" || email.kind !== "email") return "invalidEmail";
    identity.email = email.display;
  }
  return identity;
}

/** What an authenticator lists the new passkey under: the username, else the address, else the name. */
export function passkeyUserName(identity: IdentityFields): string {
  return identity.username ?? identity.email ?? identity.fullName ?? "";
}
