import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { displayName, type IdentityMatch } from "../../../common/api/identity.ts";
import { Identifier } from "../../components/Identifier.tsx";
import { useSignedIn } from "../../session.ts";
import { identitiesQuery } from "./identityApi.ts";

type Named = Pick<IdentityMatch, "id" | "username" | "email" | "givenName" | "fullName" | "pictureUrl">;

/** The names of an identity other than its display name, for a line under it. */
export function otherNames(identity: Named): string {
  const name = displayName(identity);
  return [identity.fullName, identity.email].filter((value) => value && value !== name).join(" · ");
}

/** Up to two letters that stand for the name: the first of its first two words. */
function initials(name: string): string {
  const words = name.split(/[\s@._-]+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => Array.from(word)[0] ?? "")
    .join("")
    .toLocaleUpperCase();
}

/** The identity's picture, or its initials where it has none. Decorative: the name is always beside it. */
export function Avatar({ identity, size = "md" }: { readonly identity: Named; readonly size?: "sm" | "md" }) {
  const box = size === "sm" ? "size-7 text-xs" : "size-10 text-sm";
  return identity.pictureUrl ? (
    <img
      src={identity.pictureUrl}
      alt=""
      loading="lazy"
      className={`${box} shrink-0 rounded-full object-cover`}
    />
  ) : (
    <span
      aria-hidden="true"
      className={`${box} inline-flex shrink-0 items-center justify-center rounded-full bg-blue-100 font-semibold text-blue-900`}
    >
      {initials(displayName(identity))}
    </span>
  );
}

/**
 * Who an identity ID is, as far as the signed-in person may know: one of the identities their account
 * reaches, or undefined (an identity of somebody else, known to them by its ID only).
 */
export function useKnownIdentity(): (id: string) => Named | undefined {
  const signedIn = useSignedIn();
  const identities = useQuery({ ...identitiesQuery, enabled: signedIn }).data ?? [];
  return (id) => identities.find((identity) => identity.id === id);
}

/** An identity shown in a list: picture, name and other names; by its ID when it is not known. */
export function PersonSummary({
  id,
  identity,
  nameId,
  labels,
}: {
  readonly id: string;
  readonly identity: Named | undefined;
  /** ID of the name, for the buttons it describes. */
  readonly nameId?: string | undefined;
  /** After the name, such as "you". */
  readonly labels?: ReactNode;
}) {
  if (identity === undefined)
    return (
      <span className="flex min-w-0 flex-wrap items-center gap-x-2">
        <span id={nameId}>
          <Identifier value={id} />
        </span>
        {labels}
      </span>
    );
  const others = otherNames(identity);
  return (
    <span className="flex min-w-0 items-center gap-3">
      <Avatar identity={identity} />
      <span className="flex min-w-0 flex-col">
        <span className="font-medium break-words">
          <span id={nameId}>{displayName(identity)}</span>
          {labels}
        </span>
        {others && <span className="text-sm break-words text-slate-700">{others}</span>}
      </span>
    </span>
  );
}

/** The ID of the identity the console is signed in with, once the identities are loaded. */
export function useCurrentIdentityId(): string | undefined {
  const signedIn = useSignedIn();
  return useQuery({ ...identitiesQuery, enabled: signedIn }).data?.find((identity) => identity.isCurrent)?.id;
}
