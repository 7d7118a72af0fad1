import type { ReactNode } from "react";
import { displayName, type IdentityMatch } from "../../../common/api/identity.ts";
import { Avatar } from "../../components/Avatar.tsx";
import { Identifier } from "../../components/Identifier.tsx";

type Named = Pick<IdentityMatch, "id" | "username" | "email" | "givenName" | "fullName" | "pictureUrl">;

/** The names of an identity other than its display name, for a line under it. */
export function otherNames(identity: Named): string {
  const name = displayName(identity);
  return [identity.fullName, identity.email].filter((value) => value && value !== name).join(" · ");
}

/** The identity's picture, or its initials where it has none. Decorative: the name is always beside it. */
export function PersonAvatar({
  identity,
  size = "medium",
}: {
  readonly identity: Named;
  readonly size?: "compact" | "medium";
}) {
  return <Avatar name={displayName(identity)} pictureUrl={identity.pictureUrl} size={size} />;
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
      <PersonAvatar identity={identity} />
      <span className="flex min-w-0 flex-col">
        <span className="font-medium break-words">
          <span id={nameId}>{displayName(identity)}</span>
          {labels}
        </span>
        {others && <span className="text-sm break-words text-slate-700 dark:text-slate-300">{others}</span>}
      </span>
    </span>
  );
}
