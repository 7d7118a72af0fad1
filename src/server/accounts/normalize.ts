import { isHighlyRestrictive } from "../../common/scripts.ts";
import { characterCount } from "../../common/text.ts";
import {
  passwordMaxLength,
  passwordMinLength,
  usernameOrEmailMaxLength,
  usernameOrEmailMinLength,
} from "../../common/limits.ts";

// An approximation of the PRECIS profiles (RFC 8265) for identifiers and passwords: width folding,
// Unicode normalization, no spaces or control characters in identifiers, case folding for lookups.

export type IdentifierKind = "email" | "username";

export interface Identifier {
  kind: IdentifierKind;
  /** As the person typed it (trimmed, normalized), case preserved: shown back to them. */
  display: string;
  /** Case-folded: the key accounts are found by. */
  key: string;
}

export type IdentifierProblem = "invalid" | "short";
export type PasswordProblem = "invalid" | "short";

const controlOrSpace = /[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\s]/u;
const fullwidth = /[\uFF01-\uFF5E]/g;

/**
 * What a person reads as one word: the whole username; an address's local part and each label of its
 * domain. Domain registries already forbid mixing scripts within a label, so no real address fails
 * for its domain; a local part is held to the same rule as a username, since it finds the account
 * just as well and could pass for someone else's the same way.
 */
function words(display: string, kind: IdentifierKind): string[] {
  if (kind === "username") return [display];
  const at = display.indexOf("@");
  return [display.slice(0, at), ...display.slice(at + 1).split(".")];
}

function foldWidth(value: string): string {
  return value.replace(fullwidth, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0));
}

export function normalizeIdentifier(input: string): Identifier | IdentifierProblem {
  const display = foldWidth(input.trim()).normalize("NFC");
  if (controlOrSpace.test(display)) return "invalid";
  // Compatibility characters (e.g. "Ⅳ") look like others and are refused rather than guessed at.
  if (display.normalize("NFKC") !== display) return "invalid";
  const length = characterCount(display);
  if (length < usernameOrEmailMinLength) return "short";
  if (length > usernameOrEmailMaxLength) return "invalid";
  const kind: IdentifierKind = display.includes("@") ? "email" : "username";
  if (kind === "email" && !/^[^@]+@[^@]+\.?[^@]*$/.test(display)) return "invalid";
  if (kind === "email" && (display.startsWith("@") || display.endsWith("@"))) return "invalid";
  // Look-alikes such as "pаypal" with a Cyrillic "а" would pass for another person's account.
  if (!words(display, kind).every(isHighlyRestrictive)) return "invalid";
  return { kind, display, key: display.toLowerCase().normalize("NFC") };
}

/** Passwords keep their spaces and case; only what cannot be typed reliably is refused or unified. */
export function normalizePassword(input: string): { password: string } | PasswordProblem {
  const password = input.replace(/\p{Zs}/gu, " ").normalize("NFC");
  if (password.length === 0 || /[\p{Cc}\p{Cf}]/u.test(password)) return "invalid";
  const length = characterCount(password);
  if (length > passwordMaxLength) return "invalid";
  if (length < passwordMinLength) return "short";
  return { password };
}
