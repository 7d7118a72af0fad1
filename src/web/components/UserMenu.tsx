import { useId } from "react";
import { useTranslation } from "../i18n/index.ts";
import { Link } from "react-router";
import { displayName } from "../../common/api/identity.ts";
import { pathFor } from "../../common/routes.ts";
import { useCurrentIdentity } from "../currentIdentity.ts";
import { useConsoleSignedIn } from "../session.ts";
import { Avatar } from "./Avatar.tsx";
import { Button, menuItemClass } from "./Button.tsx";
import { ChevronDownIcon, IdentityIcon } from "./icons.tsx";
import { SkeletonBlock } from "./Skeleton.tsx";
import { useSignIn } from "./SignInButton.tsx";
import { useDisclosure } from "./useDisclosure.ts";

/**
 * The signed-in identity (its picture and display name) as a button that opens a menu to see the
 * identity, switch to another one or sign out.
 */
export function UserMenu({
  signingOut,
  onSignOut,
}: {
  readonly signingOut: boolean;
  readonly onSignOut: () => void;
}) {
  const { t } = useTranslation();
  const identity = useCurrentIdentity();
  // On the account page a person may be signed in to their account only, with no identity.
  const accountOnly = !useConsoleSignedIn();
  const { starting, signIn } = useSignIn();
  const { open, buttonProps, panelRef } = useDisclosure<HTMLDivElement>();
  const panelId = useId();
  const name = identity ? displayName(identity) : "";

  return (
    <div className="relative">
      <button
        type="button"
        {...buttonProps}
        aria-controls={panelId}
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-slate-800 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        {identity ? (
          <Avatar name={displayName(identity)} pictureUrl={identity.pictureUrl} size="compact" />
        ) : accountOnly ? (
          <span className="flex size-8 items-center justify-center rounded-full bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200">
            <IdentityIcon className="size-5" />
          </span>
        ) : (
          <SkeletonBlock className="size-8 rounded-full" />
        )}
        <span className="max-w-40 truncate max-xl:sr-only">{name}</span>{" "}
        <span className="sr-only">{t("nav.accountMenu")}</span>
        <ChevronDownIcon />
      </button>
      <div
        ref={panelRef}
        id={panelId}
        hidden={!open}
        className="absolute top-full right-0 z-20 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        <div className="flex items-center gap-3 px-2 py-2">
          {identity && <Avatar name={displayName(identity)} pictureUrl={identity.pictureUrl} />}
          {accountOnly ? (
            <p className="font-semibold text-slate-900 dark:text-slate-100">{t("nav.accountOnly")}</p>
          ) : (
            <div className="min-w-0">
              <p className="text-xs text-slate-600 dark:text-slate-400">{t("nav.signedInAs")}</p>
              <p className="font-semibold break-words text-slate-900 dark:text-slate-100">{name}</p>
            </div>
          )}
        </div>
        <ul className="mt-1 flex flex-col border-t border-slate-200 pt-1 dark:border-slate-700">
          {identity && (
            <li>
              <Link to={pathFor("IdentityGet", { id: identity.id })} className={menuItemClass}>
                {t("nav.identityPage")}
              </Link>
            </li>
          )}
          <li>
            <Link to={pathFor("Account")} className={menuItemClass}>
              {t("account.menuItem")}
            </Link>
          </li>
          {accountOnly ? (
            <li>
              <Link to={pathFor("Home")} className={menuItemClass}>
                {t("account.toConsole")}
              </Link>
            </li>
          ) : (
            <li>
              <Button variant="menuItem" busy={starting} onClick={() => signIn({ again: true })}>
                {t("nav.switchIdentity")}
              </Button>
            </li>
          )}
          <li>
            <Button variant="menuItem" busy={signingOut} onClick={onSignOut}>
              {t("nav.signOut")}
            </Button>
          </li>
        </ul>
      </div>
    </div>
  );
}
