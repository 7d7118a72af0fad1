import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { CreateForm } from "../components/CreateForm.tsx";
import { CreatePage } from "../components/CreatePage.tsx";
import { createTemplate, templatesQuery } from "../partials/template/templateApi.ts";

/** A new application template by its name (reference §9.2); the rest is set on its page. */
export function ApplicationTemplateCreate() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return (
    <CreatePage
      keys="templates"
      listRoute="ApplicationTemplateList"
      form={(headingId) => (
        <CreateForm
          labelledBy={headingId}
          onSubmit={async ({ name }) => {
            const id = await createTemplate({ name });
            await queryClient.invalidateQueries({ queryKey: templatesQuery.queryKey });
            await navigate(pathFor("ApplicationTemplateGet", { id }));
          }}
          onCancel={() => void navigate(pathFor("ApplicationTemplateList"))}
        />
      )}
    />
  );
}
