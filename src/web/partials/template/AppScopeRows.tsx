import { useTranslation } from "../../i18n/index.ts";
import { TextField } from "../../components/Field.tsx";
import { EditableRows } from "./EditableRows.tsx";
import type { FieldErrors } from "./fieldErrors.ts";
import { newAppScope, type AppScopeDraft } from "./templateDraft.ts";

/**
 * The scopes the app defines for its own API, one row each: name and Remove, and under them its
 * description in English and in Slovenian; then Add scope.
 */
export function AppScopeRows({
  scopes,
  errors,
  onChange,
}: {
  readonly scopes: readonly AppScopeDraft[];
  readonly errors: FieldErrors;
  readonly onChange: (scopes: readonly AppScopeDraft[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <EditableRows
      list="appScopes"
      errors={errors}
      rows={scopes}
      newRow={newAppScope}
      rowClassName="sm:grid-cols-2"
      onChange={onChange}
      fields={(scope, { path, change, nameField, removeButton }) => (
        <>
          <div className="grid min-w-0 items-start gap-3 sm:col-span-2 sm:grid-cols-[minmax(0,1fr)_auto]">
            {nameField}
            {removeButton}
          </div>
          {(["en", "sl"] as const).map((language) => (
            <TextField
              key={language}
              label={t(
                language === "en" ? "templates.appScopes.descriptionEn" : "templates.appScopes.descriptionSl",
              )}
              name={`${path}.description.${language}`}
              error={errors.at(`${path}.description.${language}`)}
              lang={language}
              value={scope[language]}
              onChange={(event) => change({ [language]: event.target.value })}
            />
          ))}
        </>
      )}
    />
  );
}
