import { DocumentListPage } from "../components/DocumentListPage.tsx";
import { templatesQuery } from "../partials/template/templateApi.ts";

/** All application templates (spec §2): public; signed-in people can create one. */
export function ApplicationTemplateList() {
  return (
    <DocumentListPage
      query={templatesQuery}
      keys="templates"
      createRoute="ApplicationTemplateCreate"
      itemRoute="ApplicationTemplateGet"
    />
  );
}
