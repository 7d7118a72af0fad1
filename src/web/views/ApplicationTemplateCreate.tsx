import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { BackLink } from "../components/BackLink.tsx";
import { CreateForm } from "../components/CreateForm.tsx";
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { createTemplate, templatesQuery } from "../partials/template/templateApi.ts";
import { useSignedIn } from "../session.ts";

/** A new application template by its name (reference §9.2); the rest is set on its page. */
export function ApplicationTemplateCreate() {
  const { t } = useTranslation();
  const headingId = useId();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useDocumentTitle(t("templates.createPage.title"));

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <BackLink to={pathFor("ApplicationTemplateList")}>{t("templates.page.back")}</BackLink>
      <h1 id={headingId} className="text-3xl font-bold tracking-tight">
        {t("templates.createPage.title")}
      </h1>
      {signedIn ? (
        <CreateForm
          labelledBy={headingId}
          onSubmit={async ({ name }) => {
            const id = await createTemplate({ name });
            await queryClient.invalidateQueries({ queryKey: templatesQuery.queryKey });
            await navigate(pathFor("ApplicationTemplateGet", { id }));
          }}
          onCancel={() => void navigate(pathFor("ApplicationTemplateList"))}
        />
      ) : (
        <SignInPrompt message={t("templates.createPage.signedOut")} />
      )}
    </div>
  );
}
