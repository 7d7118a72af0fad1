import { useQuery } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { useTranslation } from "../i18n/index.ts";
import { Link } from "react-router";
import { pathFor, type RouteName } from "../../common/routes.ts";
import { useSiteContext } from "../api.ts";
import { ActivityIcon, IdentityIcon, OrganizationIcon, TemplateIcon } from "../components/icons.tsx";
import { useOwnIdentities } from "../currentIdentity.ts";
import { useDocumentTitle } from "../documentTitle.ts";
import { ConnectAppLink, FirstAppCard } from "../partials/home/ConnectAppEntry.tsx";
import { organizationsQuery } from "../partials/organization/organizationApi.ts";
import { templatesQuery } from "../partials/template/templateApi.ts";
import { useSignedIn } from "../session.ts";

interface Section {
  readonly route: RouteName;
  readonly key: "identities" | "organizations" | "templates" | "activity";
  readonly icon: ComponentType<{ className?: string }>;
  /** How many entries it has, once known; sections without a count have none. */
  readonly count?: number | undefined;
}

/** The console's start page: what the instance is, and a card for each of its sections. */
export function Home() {
  const { t } = useTranslation();
  const context = useSiteContext();
  const signedIn = useSignedIn();
  const templates = useQuery(templatesQuery).data;
  const organizations = useQuery(organizationsQuery).data;
  const identities = useOwnIdentities();
  useDocumentTitle();
  // An app lives in an organization: a person who administers none has no app yet.
  const firstApp = organizations && !organizations.some((organization) => organization.canUpdate);

  const sections: Section[] = [
    ...(signedIn
      ? [{ route: "IdentityList", key: "identities", icon: IdentityIcon, count: identities?.length } as const]
      : []),
    { route: "OrganizationList", key: "organizations", icon: OrganizationIcon, count: organizations?.length },
    { route: "ApplicationTemplateList", key: "templates", icon: TemplateIcon, count: templates?.length },
    ...(signedIn ? [{ route: "ActivityList", key: "activity", icon: ActivityIcon } as const] : []),
  ];

  return (
    <div className="flex flex-col gap-10">
      <section className="rounded-2xl bg-gradient-to-br from-blue-50 to-slate-50 px-6 py-8 ring-1 ring-slate-200 sm:px-10 sm:py-12 dark:from-blue-950 dark:to-slate-900 dark:ring-slate-700">
        <h1 className="text-3xl font-bold tracking-tight break-words sm:text-4xl">{context.title}</h1>
        <p className="mt-4 max-w-prose text-lg text-slate-700 dark:text-slate-300">
          {t("home.introduction")}
        </p>
        {!signedIn && (
          <p className="mt-3 max-w-prose text-slate-700 dark:text-slate-300">{t("home.signInHint")}</p>
        )}
        {signedIn && firstApp === false && <ConnectAppLink />}
      </section>

      {signedIn && firstApp && <FirstAppCard />}

      <section aria-labelledby="home-sections">
        <h2 id="home-sections" className="text-xl font-semibold">
          {t("home.sectionsHeading")}
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2">
          {sections.map(({ route, key, icon: Icon, count }) => (
            <li
              key={route}
              className="relative flex gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-blue-300 hover:shadow dark:border-slate-700 dark:bg-slate-900 dark:hover:border-blue-700"
            >
              <span className="h-fit rounded-lg bg-blue-50 p-2.5 text-blue-800 dark:bg-blue-950 dark:text-blue-300">
                <Icon className="size-6" />
              </span>
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  {/* The link covers the whole card, but its name is only the title. */}
                  <Link
                    to={pathFor(route)}
                    className="font-semibold text-blue-800 underline underline-offset-4 after:absolute after:inset-0 after:rounded-xl hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
                  >
                    {t(`nav.sections.${key}`)}
                  </Link>
                  {/* Activity has no count: its entries come a page at a time. */}
                  {count !== undefined && key !== "activity" && (
                    <span className="text-sm text-slate-600 dark:text-slate-400">
                      {t(`home.counts.${key}`, { count })}
                    </span>
                  )}
                </div>
                <p className="mt-1 text-slate-700 dark:text-slate-300">{t(`nav.descriptions.${key}`)}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
