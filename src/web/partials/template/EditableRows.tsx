import type { ReactNode } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Button } from "../../components/Button.tsx";
import { TextField } from "../../components/Field.tsx";
import type { FieldErrors } from "./fieldErrors.ts";

/** The template's lists edited one row at a time; each has its texts under `templates.<list>`. */
type RowList = "variables" | "appScopes";

/**
 * What a row's fields are given: where they are in the request, how to change the row, and the two
 * parts every row has, its name's field and its Remove button.
 */
export interface RowParts<R> {
  /** The dotted path of the row in the request (`variables.0`). */
  readonly path: string;
  readonly change: (fields: Partial<R>) => void;
  readonly nameField: ReactNode;
  readonly removeButton: ReactNode;
}

/**
 * A list of the template edited one row at a time (its variables, its scopes): a hint, a line when
 * the list is empty, each row as a group of fields with a Remove button, then an Add button.
 */
export function EditableRows<R extends { readonly key: string; readonly name: string }>({
  list,
  rows,
  errors,
  newRow,
  rowClassName,
  fields,
  onChange,
}: {
  readonly list: RowList;
  readonly rows: readonly R[];
  readonly errors: FieldErrors;
  readonly newRow: () => R;
  /** The row's grid columns. */
  readonly rowClassName: string;
  readonly fields: (row: R, parts: RowParts<R>) => ReactNode;
  readonly onChange: (rows: readonly R[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p className="text-sm text-slate-700 dark:text-slate-300">{t(`templates.${list}.hint`)}</p>
      {rows.length === 0 && (
        <p className="text-slate-700 dark:text-slate-300">{t(`templates.${list}.none`)}</p>
      )}
      {rows.map((row, index) => {
        const label = t(`templates.${list}.item`, { number: index + 1 });
        const path = `${list}.${index}`;
        const change = (changed: Partial<R>) =>
          onChange(rows.map((other) => (other.key === row.key ? { ...other, ...changed } : other)));
        const parts: RowParts<R> = {
          path,
          change,
          nameField: (
            <TextField
              label={t("common.name")}
              name={`${path}.name`}
              error={errors.at(`${path}.name`)}
              className="font-mono"
              autoComplete="off"
              value={row.name}
              onChange={(event) => change({ name: event.target.value } as Partial<R>)}
            />
          ),
          removeButton: (
            <Button
              variant="secondary"
              className="sm:mt-7"
              aria-label={`${t("common.remove")}: ${label}`}
              onClick={() => onChange(rows.filter((other) => other.key !== row.key))}
            >
              {t("common.remove")}
            </Button>
          ),
        };
        return (
          <fieldset
            key={row.key}
            className={`grid min-w-0 items-start gap-3 rounded-lg border border-slate-300 p-4 ${rowClassName} dark:border-slate-600`}
          >
            <legend className="sr-only">{label}</legend>
            {fields(row, parts)}
          </fieldset>
        );
      })}
      <div>
        <Button variant="secondary" onClick={() => onChange([...rows, newRow()])}>
          {t(`templates.${list}.add`)}
        </Button>
      </div>
    </>
  );
}
