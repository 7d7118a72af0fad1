import { useTranslation } from "../../i18n/index.ts";
import { TextField } from "../../components/Field.tsx";
import { EditableRows } from "./EditableRows.tsx";
import type { FieldErrors } from "./fieldErrors.ts";
import { newVariable, type VariableDraft } from "./templateDraft.ts";

/**
 * The template's variables, one row each: name, description, default and Remove; then Add variable.
 */
export function VariableRows({
  variables,
  errors,
  onChange,
}: {
  readonly variables: readonly VariableDraft[];
  readonly errors: FieldErrors;
  readonly onChange: (variables: readonly VariableDraft[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <EditableRows
      list="variables"
      errors={errors}
      rows={variables}
      newRow={newVariable}
      rowClassName="sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_minmax(0,1fr)_auto]"
      onChange={onChange}
      fields={(variable, { path, change, nameField, removeButton }) => (
        <>
          {nameField}
          <TextField
            label={t("common.description")}
            name={`${path}.description`}
            error={errors.at(`${path}.description`)}
            value={variable.description}
            onChange={(event) => change({ description: event.target.value })}
          />
          <TextField
            label={t("templates.variables.default")}
            name={`${path}.default`}
            error={errors.at(`${path}.default`)}
            className="font-mono"
            value={variable.default}
            onChange={(event) => change({ default: event.target.value })}
          />
          {removeButton}
        </>
      )}
    />
  );
}
