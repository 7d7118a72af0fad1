import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../../i18n/index.ts";
import { pathFor } from "../../../common/routes.ts";
import { useBuiltInNames } from "../../builtInNames.ts";
import type { Crumb } from "../../components/Breadcrumbs.tsx";
import { organizationQuery } from "./organizationApi.ts";

/** The breadcrumbs above a page within an organization: the list, then the organization by its name. */
export function useOrganizationTrail(id: string): Crumb[] {
  const { t } = useTranslation();
  const names = useBuiltInNames();
  const organization = useQuery(organizationQuery(id));
  return [
    { label: t("organizations.title"), to: pathFor("OrganizationList") },
    {
      label: organization.data
        ? names.organization(id, organization.data.name)
        : t("organizations.page.title"),
      to: pathFor("OrganizationGet", { id }),
    },
  ];
}
