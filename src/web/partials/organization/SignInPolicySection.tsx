import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Organization } from "../../../common/api/organization.ts";
import { signInPolicies, type SignInPolicy } from "../../../common/api/second-factor.ts";
import { SectionForm } from "../../components/SectionForm.tsx";
import { ChoiceField } from "../template/ChoiceField.tsx";
import { updateOf, updateOrganization } from "./organizationApi.ts";

/**
 * The organization's sign-in policy, for its admins: what its apps ask of people signing in, saved on
 * its own so that nothing else of the organization is sent with it.
 */
export function SignInPolicySection({ organization }: { readonly organization: Organization }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [policy, setPolicy] = useState<SignInPolicy>(organization.signInPolicy);
  return (
    <SectionForm
      title={t("organizations.signInPolicy.title")}
      submitLabel={t("organizations.signInPolicy.save")}
      savedMessage={t("organizations.signInPolicy.saved")}
      onSubmit={async () => {
        await updateOrganization(queryClient, organization.id, {
          ...updateOf(organization),
          signInPolicy: policy,
        });
      }}
    >
      <ChoiceField
        legend={t("organizations.signInPolicy.intro")}
        name="signInPolicy"
        value={policy}
        choices={signInPolicies.map((value) => ({
          value,
          label: t(`organizations.signInPolicy.choices.${value}.label`),
          hint: t(`organizations.signInPolicy.choices.${value}.hint`),
        }))}
        onChange={setPolicy}
        stacked
      />
    </SectionForm>
  );
}
