import type { ReactNode } from "react";
import { Link } from "react-router";
import { displayName, type Identity } from "../../../common/api/identity.ts";
import { Labels } from "../../components/Labels.tsx";
import { otherNames, PersonAvatar } from "./Person.tsx";

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

/**
 * An identity in a list: picture or initials, display name (spec §3 fallback), labels and other names.
 * The actions sit beside the name where there is room and wrap under it where there is not (a phone),
 * so the name always keeps a readable width.
 */
export function IdentityCard({ identity, labels, link, nameId, children }: IdentityCardProps) {
  const name = displayName(identity);
  const details = otherNames(identity);
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-3 rounded-md border border-slate-200 px-4 py-3 dark:border-slate-700">
      <div className="flex min-w-0 flex-1 basis-48 items-center gap-3">
        <PersonAvatar identity={identity} />
        <div className="min-w-0 flex-1">
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
          {details && <p className="text-sm break-words text-slate-700 dark:text-slate-300">{details}</p>}
        </div>
      </div>
      {children && <div className="flex flex-wrap items-center gap-x-4 gap-y-2">{children}</div>}
    </li>
  );
}
