import { useTranslation } from "../i18n/index.ts";
import { displayName } from "../../common/api/identity.ts";
import { useOwnIdentities } from "../currentIdentity.ts";
import { Button } from "./Button.tsx";
import { InfoIcon } from "./icons.tsx";
import { useSignIn } from "./SignInButton.tsx";

/**
 * Why a signed-in person sees a document read-only: admin rights belong to identities, and the console
 * is signed in with one that is not among the document's admins. When the server said which of the
 * person's own identities are (`ownAdminIdentities`), the notice names them and offers to switch;
 * when it said none are, there is nothing to tell.
 */
export function AdminNotice({
  canUpdate,
  ownAdminIdentities,
}: {
  readonly canUpdate: boolean;
  /** IDs of the person's own identities that administer the document, when the server tells. */
  readonly ownAdminIdentities?: readonly string[] | undefined;
}) {
  const { t, language } = useTranslation();
  const identities = useOwnIdentities();
  const { starting, signIn } = useSignIn();
  const current = identities?.find((identity) => identity.isCurrent);
  if (canUpdate || current === undefined || ownAdminIdentities?.length === 0) return null;

  const admins = (ownAdminIdentities ?? []).map((id) => {
    const identity = identities?.find((candidate) => candidate.id === id);
    return identity ? displayName(identity) : id;
  });
  const names = new Intl.ListFormat(language, { type: "conjunction" }).format(admins);

  return (
    <div
      role="note"
      className="flex flex-wrap items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <InfoIcon className="mt-0.5 size-5 text-amber-800 dark:text-amber-300" />
      <div className="flex min-w-0 flex-1 basis-60 flex-col gap-1">
        <p>{t("nav.adminNotice.viewingAs", { name: displayName(current) })}</p>
        {admins.length > 0 && <p>{t("nav.adminNotice.adminsAre", { count: admins.length, names })}</p>}
      </div>
      {admins.length > 0 && (
        <Button variant="secondary" busy={starting} onClick={() => signIn({ again: true })}>
          {t("nav.switchIdentity")}
        </Button>
      )}
    </div>
  );
}
