import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { BackLink } from "../components/BackLink.tsx";
import { DetailList } from "../components/DetailList.tsx";
import { QueryError } from "../components/QueryError.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { applicationQuery } from "../partials/organization/organizationApi.ts";

/** An active application of an organization, as anybody may see it. */
export function OrganizationApp() {
  const { t } = useTranslation();
  const { id = "", appId = "" } = useParams();
  const application = useQuery(applicationQuery(id, appId));
  const template = application.data?.applicationTemplate;
  useDocumentTitle(template ? template.name : t("organizations.app.title"));

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <BackLink to={pathFor("OrganizationGet", { id })}>{t("organizations.app.back")}</BackLink>
      <h1 className="text-3xl font-bold tracking-tight break-words">
        {template ? template.name : t("organizations.app.title")}
      </h1>
      {application.data !== undefined && template ? (
        <DetailList
          fields={[
            [t("common.description"), template.description],
            [
              t("organizations.apps.configuration"),
              application.data.values.length > 0 && (
                <ul>
                  {application.data.values.map((value) => (
                    <li key={value.name}>
                      <span className="font-mono">{value.name}</span>: {value.value}
                    </li>
                  ))}
                </ul>
              ),
            ],
          ]}
        />
      ) : application.isError ? (
        <QueryError error={application.error} />
      ) : (
        <p role="status">{t("app.loading")}</p>
      )}
    </div>
  );
}
