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
