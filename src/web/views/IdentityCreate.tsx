import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { useNavigate } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { CreatePage } from "../components/CreatePage.tsx";
import { createIdentity, invalidateAfterIdentityChange } from "../partials/identity/identityApi.ts";
import { IdentityForm } from "../partials/identity/IdentityForm.tsx";

/** Navigation state of the identity page right after the identity was created. */
export interface CreatedState {
  readonly created: true;
}

/** A new identity of the signed-in person (spec §2, IdentityCreate); creating requires sign-in (§6). */
export function IdentityCreate() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return (
    <CreatePage
      keys="identities"
      listRoute="IdentityList"
      form={(headingId) => (
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
      )}
    />
  );
}
