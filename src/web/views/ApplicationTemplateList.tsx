import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { QueryError } from "../components/QueryError.tsx";
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { SummaryList } from "../components/SummaryList.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { templatesQuery } from "../partials/template/templateApi.ts";
import { useSignedIn } from "../session.ts";

/** All application templates (spec §2): public; signed-in people can create one. */
export function ApplicationTemplateList() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const templates = useQuery(templatesQuery);
  useDocumentTitle(t("templates.title"));

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">{t("templates.title")}</h1>
        {signedIn && (
          <Link
            to={pathFor("ApplicationTemplateCreate")}
            className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
          >
            {t("templates.create")}
          </Link>
        )}
      </div>
      <div className="mt-6">
        {templates.data !== undefined ? (
          templates.data.length === 0 ? (
            signedIn ? (
              <p>{t("templates.empty")}</p>
            ) : (
              <SignInPrompt message={t("templates.emptySignedOut")} />
            )
          ) : (
            <>
              <p className="mb-4 text-slate-700">{t("templates.count", { count: templates.data.length })}</p>
              <SummaryList items={templates.data} link={(id) => pathFor("ApplicationTemplateGet", { id })} />
            </>
          )
        ) : templates.isError ? (
          <QueryError error={templates.error} />
        ) : (
          <p role="status">{t("app.loading")}</p>
        )}
      </div>
    </>
  );
}
