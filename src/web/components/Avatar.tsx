import { useState } from "react";

// White text on each of these meets WCAG AA contrast.
const backgrounds = [
  "bg-blue-700",
  "bg-violet-700",
  "bg-emerald-700",
  "bg-rose-700",
  "bg-teal-700",
  "bg-indigo-700",
  "bg-fuchsia-700",
  "bg-cyan-800",
] as const;

const sizes = {
  small: "size-6 text-[0.625rem]",
  compact: "size-8 text-xs",
  medium: "size-10 text-sm",
  large: "size-14 text-xl",
} as const;

/**
 * Up to two letters: the first of the first two words, so "Ada Lovelace" is "AL", "ada" is "A" and
 * "ada.lovelace@example.com" is "AL" (an e-mail address by the part before its domain).
 */
export function initialsOf(name: string): string {
  const at = name.indexOf("@");
  const words = (at > 0 ? name.slice(0, at) : name).split(/[\s._-]+/u).filter(Boolean);
  const initials = words
    .slice(0, 2)
    .map((word) => Array.from(word)[0] ?? "")
    .join("");
  return initials.toLocaleUpperCase() || "?";
}

/** The same name always gets the same colour. */
function backgroundOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
  return backgrounds[hash % backgrounds.length] ?? backgrounds[0];
}

interface AvatarProps {
  /** The name shown next to the avatar: its initials stand in for a missing or broken picture. */
  readonly name: string;
  readonly pictureUrl?: string | undefined;
  readonly size?: keyof typeof sizes;
  /** Rounded square for apps, circle for people. */
  readonly shape?: "circle" | "square";
}

/** A picture or the initials of a name; decorative, as the name is always shown next to it. */
export function Avatar({ name, pictureUrl, size = "medium", shape = "circle" }: AvatarProps) {
  const [broken, setBroken] = useState<string | null>(null);
  const rounding = shape === "circle" ? "rounded-full" : "rounded-xl";
  if (pictureUrl && broken !== pictureUrl) {
    return (
      <img
        src={pictureUrl}
        alt=""
        loading="lazy"
        onError={() => setBroken(pictureUrl)}
        className={`shrink-0 object-cover ${rounding} ${sizes[size]}`}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`inline-flex shrink-0 items-center justify-center font-semibold text-white select-none ${rounding} ${sizes[size]} ${backgroundOf(name)}`}
    >
      {initialsOf(name)}
    </span>
  );
}
