import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { QueryError } from "../components/QueryError.tsx";
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { SummaryList } from "../components/SummaryList.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { organizationsQuery } from "../partials/organization/organizationApi.ts";
import { useSignedIn } from "../session.ts";

/** All organizations (spec §2): public; signed-in people can create one. */
export function OrganizationList() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const organizations = useQuery(organizationsQuery);
  useDocumentTitle(t("organizations.title"));

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">{t("organizations.title")}</h1>
        {signedIn && (
          <Link
            to={pathFor("OrganizationCreate")}
            className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
          >
            {t("organizations.create")}
          </Link>
        )}
      </div>
      <div className="mt-6">
        {organizations.data !== undefined ? (
          organizations.data.length === 0 ? (
            signedIn ? (
              <p>{t("organizations.empty")}</p>
            ) : (
              <SignInPrompt message={t("organizations.emptySignedOut")} />
            )
          ) : (
            <>
              <p className="mb-4 text-slate-700">
                {t("organizations.count", { count: organizations.data.length })}
              </p>
              <SummaryList items={organizations.data} link={(id) => pathFor("OrganizationGet", { id })} />
            </>
          )
        ) : organizations.isError ? (
          <QueryError error={organizations.error} />
        ) : (
          <p role="status">{t("app.loading")}</p>
        )}
      </div>
    </>
  );
}
