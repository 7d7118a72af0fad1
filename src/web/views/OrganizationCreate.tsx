import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { CreateForm } from "../components/CreateForm.tsx";
import { CreatePage } from "../components/CreatePage.tsx";
import { createOrganization, organizationsQuery } from "../partials/organization/organizationApi.ts";

/** A new organization by its name and description; the creator becomes its admin. */
export function OrganizationCreate() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return (
    <CreatePage
      keys="organizations"
      listRoute="OrganizationList"
      form={(headingId) => (
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
      )}
    />
  );
}
