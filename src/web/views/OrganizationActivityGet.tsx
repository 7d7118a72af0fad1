import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { organizationActivityQuery } from "../partials/activity/activityApi.ts";
import { useOrganizationTrail } from "../partials/organization/organizationTrail.ts";
import { ActivityEntryPage } from "./ActivityGet.tsx";

/** One entry of an organization's activity, as the organization sees it (spec §2). */
export function OrganizationActivityGet() {
  const { t } = useTranslation();
  const { id = "", activityId = "" } = useParams();
  const trail = [
    ...useOrganizationTrail(id),
    { label: t("organizations.activity.title"), to: pathFor("OrganizationActivity", { id }) },
  ];
  return <ActivityEntryPage query={organizationActivityQuery(id, activityId)} trail={trail} />;
}
