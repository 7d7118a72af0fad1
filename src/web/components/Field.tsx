import { useId, type ComponentPropsWithRef, type ReactNode } from "react";

export interface FieldFrameProps {
  readonly label: string;
  readonly hint?: string | undefined;
  /** Shown under the field and linked to it, so it is read when the field gets focus. */
  readonly error?: string | null | undefined;
  readonly children: (control: {
    id: string;
    "aria-invalid": true | undefined;
    "aria-describedby": string | undefined;
  }) => ReactNode;
}

export function FieldFrame({ label, hint, error, children }: FieldFrameProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="text-sm text-slate-700 dark:text-slate-300">
          {hint}
        </p>
      )}
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy || undefined,
      })}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-800 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}

// 16 px text: phones zoom into fields with smaller text.
const controlClass =
  "w-full rounded-md border border-slate-400 bg-white px-3 py-2.5 text-base text-slate-900 aria-invalid:border-red-700 dark:border-slate-500 dark:bg-slate-950 dark:text-slate-100 dark:aria-invalid:border-red-400";

type FieldProps = Omit<FieldFrameProps, "children">;

export function TextField({
  label,
  hint,
  error,
  className = "",
  ...input
}: FieldProps & ComponentPropsWithRef<"input">) {
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {(control) => <input className={`${controlClass} ${className}`} {...input} {...control} />}
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  className = "",
  ...textarea
}: FieldProps & ComponentPropsWithRef<"textarea">) {
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {(control) => <textarea className={`${controlClass} ${className}`} {...textarea} {...control} />}
    </FieldFrame>
  );
}

/**
 * A setting that is on or off: a box to tick, its label beside it and what it does under the label,
 * all in one frame that toggles it wherever it is clicked.
 */
export function CheckboxField({
  label,
  hint,
  ...input
}: Omit<FieldProps, "error"> & Omit<ComponentPropsWithRef<"input">, "type">) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-300 px-3 py-2.5 has-checked:border-blue-700 has-checked:bg-blue-50 dark:border-slate-500 dark:has-checked:border-blue-400 dark:has-checked:bg-blue-950"
    >
      <input
        {...input}
        id={id}
        type="checkbox"
        aria-labelledby={labelId}
        aria-describedby={hint ? hintId : undefined}
        className="mt-1 size-4 shrink-0 accent-blue-700"
      />
      <span className="flex min-w-0 flex-col gap-1">
        <span id={labelId} className="font-medium">
          {label}
        </span>
        {hint && (
          <span id={hintId} className="text-sm text-slate-700 dark:text-slate-300">
            {hint}
          </span>
        )}
      </span>
    </label>
  );
}
