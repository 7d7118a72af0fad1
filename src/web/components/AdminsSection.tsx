import { useState } from "react";
import { useTranslation } from "react-i18next";
import { IdList } from "./IdList.tsx";
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
  return (
    <SectionForm
      title={t("common.admins.title")}
      submitLabel={t("common.update")}
      savedMessage={t("common.admins.updated")}
      onSubmit={async () => {
        setAdmins(await save(admins.map((admin) => admin.trim()).filter(Boolean)));
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
