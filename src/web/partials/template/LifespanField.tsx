import { useTranslation } from "../../i18n/index.ts";
import { FieldFrame } from "../../components/Field.tsx";
import { lifespanUnits, type LifespanInput } from "./lifespan.ts";

/** A token lifespan: a number and its unit (minutes, hours or days). */
export function LifespanField({
  label,
  hint,
  name,
  error,
  value,
  onChange,
}: {
  readonly label: string;
  readonly hint?: string;
  /** The field's dotted path in the request. */
  readonly name: string;
  readonly error: string | null;
  readonly value: LifespanInput;
  readonly onChange: (value: LifespanInput) => void;
}) {
  const { t } = useTranslation();
  // Units take the plural form of the number typed ("1 hour", "2 hours"; in Slovenian four forms).
  const count = Number(value.amount.replace(",", ".")) || 0;
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {(control) => (
        <div className="flex gap-2">
          <input
            {...control}
            name={name}
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            value={value.amount}
            onChange={(event) => onChange({ ...value, amount: event.target.value })}
            className="w-full min-w-0 flex-1 rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 aria-invalid:border-red-700 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:aria-invalid:border-red-400"
          />
          <select
            aria-label={t("templates.lifespan.unitOf", { field: label })}
            value={value.unit}
            onChange={(event) => {
              const unit = lifespanUnits.find((candidate) => candidate === event.target.value);
              if (unit) onChange({ ...value, unit });
            }}
            className="rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100"
          >
            {lifespanUnits.map((unit) => (
              <option key={unit} value={unit}>
                {t(`templates.lifespan.units.${unit}`, { count })}
              </option>
            ))}
          </select>
        </div>
      )}
    </FieldFrame>
  );
}
