import { DocumentListPage } from "../components/DocumentListPage.tsx";
import { organizationsQuery } from "../partials/organization/organizationApi.ts";

/** All organizations (spec §2): public; signed-in people can create one. */
export function OrganizationList() {
  return (
    <DocumentListPage
      query={organizationsQuery}
      keys="organizations"
      createRoute="OrganizationCreate"
      itemRoute="OrganizationGet"
    />
  );
}
