import { useState } from "react";
import { useTranslation } from "../i18n/index.ts";
import { IdentityPicker } from "../partials/identity/IdentityPicker.tsx";
import { useCurrentIdentity } from "../currentIdentity.ts";
import { SectionForm } from "./SectionForm.tsx";

/** The admins of a document, for its admins: `save` stores the list and answers the stored one. */
export function AdminsSection({
  admins: initial,
  save,
}: {
  readonly admins: string[];
  readonly save: (admins: string[]) => Promise<string[]>;
}) {
  const { t } = useTranslation();
  const [admins, setAdmins] = useState(initial);
  const current = useCurrentIdentity()?.id;
  return (
    <SectionForm
      title={t("common.admins.title")}
      submitLabel={t("common.admins.save")}
      savedMessage={t("common.admins.updated")}
      onSubmit={async () => {
        setAdmins(await save(admins));
      }}
    >
      {(fieldError) => (
        <IdentityPicker
          label={t("common.admins.pick")}
          chosenLabel={t("common.admins.title")}
          hint={t("common.admins.hint")}
          name="admins"
          selected={admins}
          current={current}
          error={fieldError("admins")}
          onChange={setAdmins}
        />
      )}
    </SectionForm>
  );
}
