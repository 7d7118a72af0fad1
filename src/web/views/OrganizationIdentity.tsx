import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { Link, useParams } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { buttonClassName } from "../components/Button.tsx";
import { displayName } from "../../common/api/identity.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { DetailList } from "../components/DetailList.tsx";
import { Identifier } from "../components/Identifier.tsx";
import { Labels } from "../components/Labels.tsx";
import { QueryError } from "../components/QueryError.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { organizationIdentityQuery, organizationQuery } from "../partials/organization/organizationApi.ts";
import { useOrganizationTrail } from "../partials/organization/organizationTrail.ts";

/** An identity as the organization sees it (spec §2): its organization-scoped ID, profile and status. */
export function OrganizationIdentity() {
  const { t } = useTranslation();
  const { id = "", identityId = "" } = useParams();
  const identity = useQuery(organizationIdentityQuery(id, identityId));
  const name = identity.data ? displayName(identity.data) : t("organizations.identity.title");
  useDocumentTitle(name);
  const trail = useOrganizationTrail(id);
  const canBlock = useQuery(organizationQuery(id)).data?.canUpdate === true;

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <Breadcrumbs trail={trail} current={name} />
      <h1 className="text-3xl font-bold tracking-tight break-words">
        {name}
        {identity.data && (
          <Labels
            labels={[
              identity.data.active ? t("common.labels.active") : t("common.labels.disabled"),
              ...(identity.data.blocked ? [t("common.labels.blocked")] : []),
              ...(identity.data.admin ? [t("common.labels.admin")] : []),
            ]}
          />
        )}
      </h1>
      {identity.data !== undefined ? (
        <DetailList
          fields={[
            [t("identities.fields.username"), identity.data.username],
            [t("identities.fields.email"), identity.data.email],
            [t("identities.fields.givenName"), identity.data.givenName],
            [t("identities.fields.fullName"), identity.data.fullName],
            [t("identities.fields.pictureUrl"), identity.data.pictureUrl],
            [t("organizations.identity.scopedId"), <Identifier value={identity.data.id} />],
            [
              t("organizations.identity.admin"),
              identity.data.admin
                ? t("organizations.identity.adminYes")
                : t("organizations.identity.adminNo"),
            ],
            [
              t("organizations.identity.status"),
              t("organizations.identity.applications", { count: identity.data.applications.length }),
            ],
          ]}
        />
      ) : identity.isError ? (
        <QueryError error={identity.error} />
      ) : (
        <p role="status">{t("app.loading")}</p>
      )}
      {identity.data !== undefined && canBlock && (
        <div>
          <Link
            to={pathFor("OrganizationBlockUser", { id, identityId })}
            className={buttonClassName({ variant: identity.data.blocked ? "secondary" : "danger" })}
          >
            {identity.data.blocked ? t("organizations.block.manage") : t("organizations.block.title")}
          </Link>
        </div>
      )}
    </div>
  );
}
