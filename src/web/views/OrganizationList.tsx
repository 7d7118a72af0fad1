import { useBuiltInNames } from "../builtInNames.ts";
import { DocumentListPage } from "../components/DocumentListPage.tsx";
import { organizationsQuery } from "../partials/organization/organizationApi.ts";

/** All organizations (spec §2): public; signed-in people can create one. */
export function OrganizationList() {
  const names = useBuiltInNames();
  return (
    <DocumentListPage
      query={organizationsQuery}
      keys="organizations"
      createRoute="OrganizationCreate"
      itemRoute="OrganizationGet"
      shownName={(organization) => names.organization(organization.id, organization.name)}
    />
  );
}
