import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button.tsx";

/** The template's lists edited one row at a time; each has its texts under `templates.<list>`. */
type RowList = "variables" | "appScopes";

/** What a row's fields are given: where they are in the request, how to change the row, its Remove button. */
export interface RowParts<R> {
  /** The dotted path of the row in the request (`variables.0`). */
  readonly path: string;
  readonly change: (fields: Partial<R>) => void;
  readonly removeButton: ReactNode;
}

/**
 * A list of the template edited one row at a time (its variables, its scopes): a hint, a line when
 * the list is empty, each row as a group of fields with a Remove button, then an Add button.
 */
export function EditableRows<R extends { readonly key: string }>({
  list,
  rows,
  newRow,
  rowClassName,
  fields,
  onChange,
}: {
  readonly list: RowList;
  readonly rows: readonly R[];
  readonly newRow: () => R;
  /** The row's grid columns. */
  readonly rowClassName: string;
  readonly fields: (row: R, parts: RowParts<R>) => ReactNode;
  readonly onChange: (rows: readonly R[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p className="text-sm text-slate-700">{t(`templates.${list}.hint`)}</p>
      {rows.length === 0 && <p className="text-slate-700">{t(`templates.${list}.none`)}</p>}
      {rows.map((row, index) => {
        const label = t(`templates.${list}.item`, { number: index + 1 });
        const parts: RowParts<R> = {
          path: `${list}.${index}`,
          change: (changed) =>
            onChange(rows.map((other) => (other.key === row.key ? { ...other, ...changed } : other))),
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
            className={`grid min-w-0 items-start gap-3 rounded-lg border border-slate-300 p-4 ${rowClassName}`}
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
