import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button.tsx";
import { TextField } from "../../components/Field.tsx";
import type { FieldErrors } from "./fieldErrors.ts";
import { newAppScope, type AppScopeDraft } from "./templateDraft.ts";

/**
 * The scopes the app defines for its own API, one row each: name, its description in English and in
 * Slovenian, and Remove; then Add scope.
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
  const change = (key: string, fields: Partial<AppScopeDraft>) =>
    onChange(scopes.map((scope) => (scope.key === key ? { ...scope, ...fields } : scope)));
  return (
    <>
      <p className="text-sm text-slate-700">{t("templates.appScopes.hint")}</p>
      {scopes.length === 0 && <p className="text-slate-700">{t("templates.appScopes.none")}</p>}
      {scopes.map((scope, index) => {
        const label = t("templates.appScopes.item", { number: index + 1 });
        const path = `appScopes.${index}`;
        return (
          <fieldset
            key={scope.key}
            className="grid min-w-0 items-start gap-3 rounded-lg border border-slate-300 p-4 sm:grid-cols-2"
          >
            <legend className="sr-only">{label}</legend>
            <div className="grid min-w-0 items-start gap-3 sm:col-span-2 sm:grid-cols-[minmax(0,1fr)_auto]">
              <TextField
                label={t("common.name")}
                name={`${path}.name`}
                error={errors.at(`${path}.name`)}
                className="font-mono"
                autoComplete="off"
                value={scope.name}
                onChange={(event) => change(scope.key, { name: event.target.value })}
              />
              <Button
                variant="secondary"
                className="sm:mt-7"
                aria-label={`${t("common.remove")}: ${label}`}
                onClick={() => onChange(scopes.filter((other) => other.key !== scope.key))}
              >
                {t("common.remove")}
              </Button>
            </div>
            <TextField
              label={t("templates.appScopes.descriptionEn")}
              name={`${path}.description.en`}
              error={errors.at(`${path}.description.en`)}
              lang="en"
              value={scope.en}
              onChange={(event) => change(scope.key, { en: event.target.value })}
            />
            <TextField
              label={t("templates.appScopes.descriptionSl")}
              name={`${path}.description.sl`}
              error={errors.at(`${path}.description.sl`)}
              lang="sl"
              value={scope.sl}
              onChange={(event) => change(scope.key, { sl: event.target.value })}
            />
          </fieldset>
        );
      })}
      <div>
        <Button variant="secondary" onClick={() => onChange([...scopes, newAppScope()])}>
          {t("templates.appScopes.add")}
        </Button>
      </div>
    </>
  );
}
