import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button.tsx";
import { TextField } from "../../components/Field.tsx";
import type { FieldErrors } from "./fieldErrors.ts";
import { newVariable, type VariableDraft } from "./templateDraft.ts";

/** The template's variables, one row each: name, description and Remove; then Add variable. */
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
  const change = (key: string, fields: Partial<VariableDraft>) =>
    onChange(variables.map((variable) => (variable.key === key ? { ...variable, ...fields } : variable)));
  return (
    <>
      <p className="text-sm text-slate-700">{t("templates.variables.hint")}</p>
      {variables.length === 0 && <p className="text-slate-700">{t("templates.variables.none")}</p>}
      {variables.map((variable, index) => {
        const name = t("templates.variables.item", { number: index + 1 });
        const path = `variables.${index}`;
        return (
          <fieldset
            key={variable.key}
            className="grid min-w-0 items-start gap-3 rounded-lg border border-slate-300 p-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto]"
          >
            <legend className="sr-only">{name}</legend>
            <TextField
              label={t("common.name")}
              name={`${path}.name`}
              error={errors.at(`${path}.name`)}
              className="font-mono"
              autoComplete="off"
              value={variable.name}
              onChange={(event) => change(variable.key, { name: event.target.value })}
            />
            <TextField
              label={t("common.description")}
              name={`${path}.description`}
              error={errors.at(`${path}.description`)}
              value={variable.description}
              onChange={(event) => change(variable.key, { description: event.target.value })}
            />
            <Button
              variant="secondary"
              className="sm:mt-7"
              aria-label={`${t("common.remove")}: ${name}`}
              onClick={() => onChange(variables.filter((other) => other.key !== variable.key))}
            >
              {t("common.remove")}
            </Button>
          </fieldset>
        );
      })}
      <div>
        <Button variant="secondary" onClick={() => onChange([...variables, newVariable()])}>
          {t("templates.variables.add")}
        </Button>
      </div>
    </>
  );
}
