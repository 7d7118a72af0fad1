import { useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { BackLink } from "../components/BackLink.tsx";
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { createIdentity, invalidateAfterIdentityChange } from "../partials/identity/identityApi.ts";
import { IdentityForm } from "../partials/identity/IdentityForm.tsx";
import { useSignedIn } from "../session.ts";

/** Navigation state of the identity page right after the identity was created. */
export interface CreatedState {
  readonly created: true;
}

/** A new identity of the signed-in person (spec §2, IdentityCreate); creating requires sign-in (§6). */
export function IdentityCreate() {
  const { t } = useTranslation();
  const headingId = useId();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useDocumentTitle(t("identities.createPage.title"));

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <BackLink to={pathFor("IdentityList")}>{t("identities.page.back")}</BackLink>
      <h1 id={headingId} className="text-3xl font-bold tracking-tight">
        {t("identities.createPage.title")}
      </h1>
      {signedIn ? (
        <IdentityForm
          labelledBy={headingId}
          submitLabel={t("identities.form.create")}
          autoFocus
          onSubmit={async (fields) => {
            const id = await createIdentity(fields);
            await invalidateAfterIdentityChange(queryClient);
            const state: CreatedState = { created: true };
            await navigate(pathFor("IdentityGet", { id }), { state });
          }}
          onCancel={() => void navigate(pathFor("IdentityList"))}
        />
      ) : (
        <SignInPrompt message={t("identities.createPage.signedOut")} />
      )}
    </div>
  );
}
