import { displayName, type Identity } from "../../common/api/identity.ts";

type AvatarIdentity = Pick<Identity, "id" | "username" | "email" | "givenName" | "fullName" | "pictureUrl">;

/** The first character of a text as a reader sees it (a letter with its accents, an emoji). */
function firstCharacter(text: string): string {
  const [first] = new Intl.Segmenter().segment(text);
  return first?.segment ?? "";
}

/**
 * Up to two letters for a name: the first of its first two words ("Ada Lovelace" → "AL"); of an
 * e-mail address, only the part before the @ counts.
 */
export function initials(name: string): string {
  const words = (name.split("@")[0] ?? "").split(/\s+/u).filter(Boolean);
  const letters = words.slice(0, 2).map(firstCharacter).join("");
  return (letters || firstCharacter(name) || "?").toLocaleUpperCase();
}

/** Background colours of initials, each dark enough for white letters. */
const colours = [
  "bg-blue-700",
  "bg-emerald-700",
  "bg-violet-700",
  "bg-rose-700",
  "bg-amber-700",
  "bg-cyan-700",
];

function colourOf(id: string): string {
  let sum = 0;
  for (const character of id) sum = (sum + (character.codePointAt(0) ?? 0)) % colours.length;
  return colours[sum] ?? "bg-slate-700";
}

/**
 * An identity's picture, or its initials on a colour of its own. Decorative: the name is always
 * written next to it.
 */
export function Avatar({
  identity,
  size = "size-8",
}: {
  readonly identity: AvatarIdentity;
  readonly size?: string;
}) {
  if (identity.pictureUrl) {
    return <img src={identity.pictureUrl} alt="" className={`${size} shrink-0 rounded-full object-cover`} />;
  }
  return (
    <span
      aria-hidden="true"
      className={`${size} ${colourOf(identity.id)} inline-flex shrink-0 items-center justify-center rounded-full text-xs font-semibold text-white`}
    >
      {initials(displayName(identity))}
    </span>
  );
}
