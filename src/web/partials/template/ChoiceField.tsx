import { useId } from "react";

export interface Choice<T extends string> {
  readonly value: T;
  /** The choice in words. */
  readonly label: string;
  /** What the choice is for, in a line: shown in place of its technical value. */
  readonly hint?: string;
}

/**
 * A choice among a few fixed values, each shown in words with its technical value beside it (the
 * value people meet in libraries and the OIDC documents), or with a line on what it is for.
 */
export function ChoiceField<T extends string>({
  legend,
  name,
  value,
  choices,
  onChange,
  stacked = false,
}: {
  readonly legend: string;
  /** The field's dotted path in the request, shared by its radio buttons. */
  readonly name: string;
  readonly value: T;
  readonly choices: readonly Choice<T>[];
  readonly onChange: (value: T) => void;
  /** One choice under another, for choices whose lines say more than a few words. */
  readonly stacked?: boolean;
}) {
  const id = useId();
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 font-medium">{legend}</legend>
      <div className={stacked ? "grid gap-2" : "grid gap-2 sm:grid-cols-2"}>
        {choices.map((choice) => (
          <label
            key={choice.value}
            htmlFor={`${id}-${choice.value}`}
            className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-300 px-3 py-2 has-checked:border-blue-700 has-checked:bg-blue-50 dark:border-slate-600 dark:has-checked:border-blue-400 dark:has-checked:bg-blue-950"
          >
            <input
              id={`${id}-${choice.value}`}
              type="radio"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              className="mt-1 accent-blue-700"
            />
            <span className="flex min-w-0 flex-col">
              <span className={choice.hint ? "font-medium" : ""}>{choice.label}</span>
              {choice.hint ? (
                <span className="text-sm text-slate-700 dark:text-slate-300">{choice.hint}</span>
              ) : (
                <code className="text-sm break-words text-slate-700 dark:text-slate-300">{choice.value}</code>
              )}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
