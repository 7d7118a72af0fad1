import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { BackLink } from "../components/BackLink.tsx";
import { CreateForm } from "../components/CreateForm.tsx";
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { createOrganization, organizationsQuery } from "../partials/organization/organizationApi.ts";
import { useSignedIn } from "../session.ts";

/** A new organization by its name and description; the creator becomes its admin. */
export function OrganizationCreate() {
  const { t } = useTranslation();
  const headingId = useId();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useDocumentTitle(t("organizations.createPage.title"));

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <BackLink to={pathFor("OrganizationList")}>{t("organizations.page.back")}</BackLink>
      <h1 id={headingId} className="text-3xl font-bold tracking-tight">
        {t("organizations.createPage.title")}
      </h1>
      {signedIn ? (
        <CreateForm
          labelledBy={headingId}
          withDescription
          onSubmit={async (fields) => {
            const id = await createOrganization(fields);
            await queryClient.invalidateQueries({ queryKey: organizationsQuery.queryKey });
            await navigate(pathFor("OrganizationGet", { id }));
          }}
          onCancel={() => void navigate(pathFor("OrganizationList"))}
        />
      ) : (
        <SignInPrompt message={t("organizations.createPage.signedOut")} />
      )}
    </div>
  );
}
