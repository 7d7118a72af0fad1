import { useTranslation } from "../i18n/index.ts";
import { Link, useParams, useSearchParams } from "react-router";
import { idPattern } from "../../common/ids.ts";
import { pathFor } from "../../common/routes.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { organizationActivityListQuery } from "../partials/activity/activityApi.ts";
import { useOrganizationTrail } from "../partials/organization/organizationTrail.ts";
import { ActivityListPage } from "./ActivityList.tsx";

/**
 * What happened in an organization, for its admins (spec §2, OrganizationActivity): newest first, of
 * one category, or of one member (`?identity=` with the organization-scoped ID).
 */
export function OrganizationActivity() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const [search] = useSearchParams();
  const requested = search.get("identity");
  const identity = requested && idPattern.test(requested) ? requested : undefined;
  const title = t("organizations.activity.title");
  const trail = useOrganizationTrail(id);
  return (
    <ActivityListPage
      title={title}
      signedOutMessage={t("organizations.activity.signedOut")}
      query={(category) => organizationActivityListQuery(id, category, identity)}
      entryPath={(entry) => pathFor("OrganizationActivityGet", { id, activityId: entry.id })}
      header={<Breadcrumbs trail={trail} current={title} />}
      note={
        identity && (
          <p className="text-slate-700 dark:text-slate-300">
            {t("activity.oneMember")}{" "}
            <Link
              to={pathFor("OrganizationActivity", { id })}
              className="text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
            >
              {t("activity.allMembers")}
            </Link>
          </p>
        )
      }
    />
  );
}
