import { useTranslation } from "../../i18n/index.ts";
import type { OrganizationUser } from "../../../common/api/organization.ts";
import { CheckIcon } from "../../components/icons.tsx";

const badge = "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium";

/** A member's second factors as small badges: which they have, or that they have none. */
export function MemberSecondFactors({ user }: { readonly user: OrganizationUser }) {
  const { t } = useTranslation();
  return (
    // Not a list: the users list's rows are its only list items.
    <p className="flex flex-wrap gap-2">
      <span className="sr-only">{t("organizations.memberFactors.label")}:</span>
      {user.secondFactors.length === 0 ? (
        <span className={`${badge} bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300`}>
          {t("organizations.memberFactors.none")}
        </span>
      ) : (
        user.secondFactors.map((factor) => (
          <span
            key={factor}
            className={`${badge} bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200`}
          >
            <CheckIcon className="size-3.5" />
            {t(`organizations.memberFactors.${factor}`)}
          </span>
        ))
      )}
    </p>
  );
}

/** How many of the members shown have a second factor; nothing to say of one member or none. */
export function SecondFactorSummary({ users }: { readonly users: readonly OrganizationUser[] }) {
  const { t } = useTranslation();
  if (users.length < 2) return null;
  const count = users.filter((user) => user.secondFactors.length > 0).length;
  return (
    <p className="text-sm text-slate-700 dark:text-slate-300">
      {t("organizations.memberFactors.summary", { count, total: users.length })}
    </p>
  );
}
