import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useDeferredValue, useMemo } from "react";
import { useTranslation } from "../i18n/index.ts";
import { Link, useParams, useSearchParams } from "react-router";
import { displayName } from "../../common/api/identity.ts";
import type { OrganizationUser } from "../../common/api/organization.ts";
import { pathFor } from "../../common/routes.ts";
import { Alert } from "../components/Alert.tsx";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { Button, buttonClassName } from "../components/Button.tsx";
import { TextField } from "../components/Field.tsx";
import { Labels } from "../components/Labels.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { useRelativeTime } from "../partials/activity/relativeTime.ts";
import { PersonAvatar, otherNames } from "../partials/identity/Person.tsx";
import { MemberSecondFactors, SecondFactorSummary } from "../partials/organization/MemberSecondFactors.tsx";
import { organizationQuery, organizationUsersQuery } from "../partials/organization/organizationApi.ts";
import { useOrganizationTrail } from "../partials/organization/organizationTrail.ts";
import { useSignedIn } from "../session.ts";

/**
 * The organization's members for its admins (spec §2, OrganizationUsers): newest first, found by name
 * or e-mail (kept in the address as `?q=`), each with their status, apps, joining and last sign-in.
 */
export function OrganizationUsers() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const signedIn = useSignedIn();
  const [search, setSearch] = useSearchParams();
  const typed = search.get("q") ?? "";
  const q = useDeferredValue(typed.trim());
  const users = useInfiniteQuery({ ...organizationUsersQuery(id, q), enabled: signedIn });
  const entries = useMemo(() => users.data?.pages.flatMap((page) => page.items) ?? [], [users.data]);
  const title = t("organizations.users.title");
  useDocumentTitle(title);
  const trail = useOrganizationTrail(id);

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <Breadcrumbs trail={trail} current={title} />
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      {signedIn && (
        <form role="search" onSubmit={(event) => event.preventDefault()}>
          <TextField
            type="search"
            label={t("organizations.users.search")}
            value={typed}
            onChange={(event) =>
              setSearch(event.target.value ? { q: event.target.value } : {}, { replace: true })
            }
          />
        </form>
      )}
      <SignedInContent signedOutMessage={t("organizations.users.signedOut")} query={users}>
        {() =>
          entries.length === 0 ? (
            <p className="text-slate-700 dark:text-slate-300">
              {q ? t("organizations.users.emptySearch") : t("organizations.users.empty")}
            </p>
          ) : (
            <>
              <SecondFactorSummary users={entries} />
              <ul className="flex flex-col gap-3">
                {entries.map((user) => (
                  <UserRow key={user.id} organizationId={id} user={user} />
                ))}
              </ul>
              <div className="flex flex-wrap items-center gap-4">
                {users.hasNextPage && (
                  <Button
                    variant="secondary"
                    busy={users.isFetchingNextPage}
                    onClick={() => void users.fetchNextPage()}
                  >
                    {t("organizations.users.loadMore")}
                  </Button>
                )}
                <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
                  {t("organizations.users.shown", { count: entries.length })}
                </p>
              </div>
              {users.isFetchNextPageError && <Alert message={t("errors.loadingDataFailed")} />}
            </>
          )
        }
      </SignedInContent>
    </div>
  );
}

const linkClass =
  "font-semibold text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100";

function UserRow({
  organizationId,
  user,
}: {
  readonly organizationId: string;
  readonly user: OrganizationUser;
}) {
  const { t } = useTranslation();
  const relativeTime = useRelativeTime();
  const organization = useQuery(organizationQuery(organizationId));
  const applicationNames = user.applications.map(
    (applicationId) =>
      organization.data?.applications?.find((application) => application.id === applicationId)
        ?.applicationTemplate.name ?? applicationId,
  );
  const name = displayName(user);
  const others = otherNames(user);
  // Labels agree with "user", the noun of this list (Slovenian words differ by gender).
  const labels = [
    t(`organizations.users.labels.${user.status}`),
    ...(user.admin ? [t("organizations.users.labels.admin")] : []),
  ];
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-start sm:justify-between dark:border-slate-700 dark:bg-slate-900">
      <div className="flex min-w-0 gap-3">
        <PersonAvatar identity={user} />
        <div className="flex min-w-0 flex-col gap-1">
          <p className="break-words">
            <Link
              to={pathFor("OrganizationIdentity", { id: organizationId, identityId: user.id })}
              className={linkClass}
            >
              {name}
            </Link>
            <Labels labels={labels} />
          </p>
          {others && <p className="text-sm break-words text-slate-700 dark:text-slate-300">{others}</p>}
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {t("organizations.users.joined", { time: relativeTime(user.joinedAt) })}
            {" · "}
            {user.lastSignedInAt
              ? t("organizations.users.lastSignIn", { time: relativeTime(user.lastSignedInAt) })
              : t("organizations.users.neverSignedIn")}
          </p>
          {applicationNames.length > 0 && (
            <p className="text-sm break-words text-slate-700 dark:text-slate-300">
              {t("organizations.users.applications", { count: applicationNames.length })}:{" "}
              {applicationNames.join(", ")}
            </p>
          )}
          <MemberSecondFactors user={user} />
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <Link
          to={`${pathFor("OrganizationActivity", { id: organizationId })}?identity=${encodeURIComponent(user.id)}`}
          className={buttonClassName({ variant: "secondary" })}
          aria-label={`${t("organizations.users.activity")}: ${name}`}
        >
          {t("organizations.users.activity")}
        </Link>
        <Link
          to={pathFor("OrganizationBlockUser", { id: organizationId, identityId: user.id })}
          className={buttonClassName({ variant: "secondary" })}
          aria-label={`${t("organizations.users.block")}: ${name}`}
        >
          {t("organizations.users.block")}
        </Link>
      </div>
    </li>
  );
}
