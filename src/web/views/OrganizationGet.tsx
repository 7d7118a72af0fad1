import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../i18n/index.ts";
import type { Organization } from "../../common/api/organization.ts";
import { useBuiltInNames } from "../builtInNames.ts";
import { DocumentPage, DocumentSummary } from "../components/DocumentPage.tsx";
import { TextAreaField, TextField } from "../components/Field.tsx";
import { Identifier } from "../components/Identifier.tsx";
import { SectionForm } from "../components/SectionForm.tsx";
import { AddedApplications } from "../partials/organization/AddedApplications.tsx";
import { AvailableApplications } from "../partials/organization/AvailableApplications.tsx";
import { updateOf, updateOrganization } from "../partials/organization/organizationApi.ts";
import { organizationQuery } from "../partials/organization/organizationApi.ts";
import { OrganizationAdmins } from "../partials/organization/OrganizationAdmins.tsx";
import { OrganizationIdentities } from "../partials/organization/OrganizationIdentities.tsx";
import { OrganizationInvitations } from "../partials/organization/OrganizationInvitations.tsx";
import { OrganizationSections } from "../partials/organization/OrganizationSections.tsx";
import { OrganizationStatus } from "../partials/organization/OrganizationStatus.tsx";
import { SignInPolicySection } from "../partials/organization/SignInPolicySection.tsx";
import { useSignedIn } from "../session.ts";

/**
 * One organization (spec §2): public details; applications, admins and invitations for its admins;
 * your identities in it.
 */
export function OrganizationGet() {
  const names = useBuiltInNames();
  return (
    <DocumentPage
      keys="organizations"
      listRoute="OrganizationList"
      query={organizationQuery}
      shownName={(organization) => names.organization(organization.id, organization.name)}
    >
      {(data, name) => <OrganizationDetails organization={data} name={name} />}
    </DocumentPage>
  );
}

function OrganizationDetails({
  organization,
  name,
}: {
  readonly organization: Organization;
  /** As the reader sees it. */
  readonly name: string;
}) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  // Secrets are in one answer only: kept here until the page is left.
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const addSecrets = (made: Record<string, string>) => setSecrets((old) => ({ ...old, ...made }));

  return (
    <>
      <DocumentSummary
        document={{ ...organization, name }}
        fields={[
          [t("organizations.fields.id"), <Identifier value={organization.id} />],
          [
            t("organizations.signInPolicy.title"),
            t(`organizations.signInPolicy.choices.${organization.signInPolicy}.label`),
          ],
        ]}
      />
      {organization.canUpdate && (
        <>
          <OrganizationSections organizationId={organization.id} />
          <BasicSection organization={organization} />
          <SignInPolicySection organization={organization} />
          <AddedApplications organization={organization} secrets={secrets} onSecrets={addSecrets} />
          <AvailableApplications organization={organization} onSecrets={addSecrets} />
        </>
      )}
      {signedIn && <OrganizationIdentities organizationId={organization.id} />}
      {organization.canUpdate && (
        <>
          <OrganizationAdmins organization={organization} />
          <OrganizationInvitations organizationId={organization.id} />
          <OrganizationStatus organization={organization} name={name} />
        </>
      )}
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
      submitLabel={t("common.saveChanges")}
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
