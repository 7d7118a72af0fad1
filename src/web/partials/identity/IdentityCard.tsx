import type { ReactNode } from "react";
import { Link } from "react-router";
import { displayName, type Identity } from "../../../common/api/identity.ts";
import { Avatar } from "../../components/Avatar.tsx";
import { Labels } from "../../components/Labels.tsx";

interface IdentityCardProps {
  readonly identity: Identity;
  /** Short labels after the name, such as "current" or "blocked". */
  readonly labels: string[];
  /** The name links to the identity's page. */
  readonly link?: string | undefined;
  /** ID of the name, for buttons that the name describes. */
  readonly nameId?: string | undefined;
  /** Actions at the end of the card. */
  readonly children?: ReactNode;
}

/** An identity in a list: picture, display name (spec §3 fallback), labels and other names. */
export function IdentityCard({ identity, labels, link, nameId, children }: IdentityCardProps) {
  const name = displayName(identity);
  const details = [identity.fullName, identity.email].filter((value) => value && value !== name);
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 px-4 py-3 dark:border-slate-700">
      <Avatar name={name} pictureUrl={identity.pictureUrl} />
      <div className="min-w-0 flex-1 basis-40">
        <p id={nameId} className="font-medium break-words">
          {link ? (
            <Link
              to={link}
              className="text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300"
            >
              {name}
            </Link>
          ) : (
            name
          )}
          <Labels labels={labels} />
        </p>
        {details.length > 0 && (
          <p className="text-sm break-words text-slate-700 dark:text-slate-300">{details.join(" · ")}</p>
        )}
      </div>
      {children}
    </li>
  );
}
