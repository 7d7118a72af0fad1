import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import type { Organization } from "../../common/api/organization.ts";
import { pathFor } from "../../common/routes.ts";
import { BackLink } from "../components/BackLink.tsx";
import { DetailList } from "../components/DetailList.tsx";
import { TextAreaField, TextField } from "../components/Field.tsx";
import { IdList } from "../components/IdList.tsx";
import { Identifier } from "../components/Identifier.tsx";
import { Labels } from "../components/Labels.tsx";
import { QueryError } from "../components/QueryError.tsx";
import { SectionForm } from "../components/SectionForm.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { AddedApplications, useOrganizationSave } from "../partials/organization/AddedApplications.tsx";
import { AvailableApplications } from "../partials/organization/AvailableApplications.tsx";
import { updateOf, updateOrganization } from "../partials/organization/organizationApi.ts";
import { organizationQuery } from "../partials/organization/organizationApi.ts";
import { OrganizationIdentities } from "../partials/organization/OrganizationIdentities.tsx";
import { useSignedIn } from "../session.ts";

/** One organization (spec §2): public details; applications and admins for its admins; your identities in it. */
export function OrganizationGet() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const organization = useQuery(organizationQuery(id));
  useDocumentTitle(organization.data ? organization.data.name : t("organizations.page.title"));

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <BackLink to={pathFor("OrganizationList")}>{t("organizations.page.back")}</BackLink>
      {organization.data !== undefined ? (
        <OrganizationDetails key={id} organization={organization.data} />
      ) : (
        <>
          <h1 className="text-3xl font-bold tracking-tight">{t("organizations.page.title")}</h1>
          {organization.isError ? (
            <QueryError error={organization.error} />
          ) : (
            <p role="status">{t("app.loading")}</p>
          )}
        </>
      )}
    </div>
  );
}

function OrganizationDetails({ organization }: { readonly organization: Organization }) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  // Secrets are in one answer only: kept here until the page is left.
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const addSecrets = (made: Record<string, string>) => setSecrets((old) => ({ ...old, ...made }));
  const addedState = useOrganizationSave(organization, addSecrets);
  const availableState = useOrganizationSave(organization, addSecrets);

  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">
        <span className="break-words">{organization.name}</span>
        <Labels labels={organization.canUpdate ? [t("common.labels.admin")] : []} />
      </h1>
      <DetailList
        fields={[
          [t("common.description"), organization.description],
          [t("organizations.fields.id"), <Identifier value={organization.id} />],
        ]}
      />
      {organization.canUpdate && (
        <>
          <BasicSection organization={organization} />
          <AddedApplications organization={organization} state={addedState} secrets={secrets} />
          <AvailableApplications organization={organization} state={availableState} />
        </>
      )}
      {signedIn && <OrganizationIdentities organizationId={organization.id} />}
      {organization.canUpdate && <AdminsSection organization={organization} />}
    </>
  );
}

function BasicSection({ organization }: { readonly organization: Organization }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(organization.name);
  const [description, setDescription] = useState(organization.description);
  return (
    <SectionForm
      title={t("organizations.basic.title")}
      submitLabel={t("common.update")}
      savedMessage={t("organizations.basic.updated")}
      onSubmit={async () => {
        await updateOrganization(queryClient, organization.id, {
          ...updateOf(organization),
          name,
          description,
        });
      }}
    >
      <TextField
        label={t("common.name")}
        required
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <TextAreaField
        label={t("common.description")}
        rows={3}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
    </SectionForm>
  );
}

function AdminsSection({ organization }: { readonly organization: Organization }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [admins, setAdmins] = useState(organization.admins ?? []);
  return (
    <SectionForm
      title={t("common.admins.title")}
      submitLabel={t("common.update")}
      savedMessage={t("common.admins.updated")}
      onSubmit={async () => {
        const updated = await updateOrganization(queryClient, organization.id, {
          ...updateOf(organization),
          admins: admins.map((admin) => admin.trim()).filter(Boolean),
        });
        setAdmins(updated.admins ?? []);
      }}
    >
      <IdList
        label={t("common.admins.item")}
        addLabel={t("common.admins.add")}
        values={admins}
        onChange={setAdmins}
      />
    </SectionForm>
  );
}
