import { useId, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorMessage } from "../api.ts";
import { Alert } from "./Alert.tsx";
import { Button } from "./Button.tsx";

interface SectionFormProps {
  readonly title: string;
  /** The section's fields; `fieldError(name)` is the message of an error about the field of that name. */
  readonly children: ReactNode | ((fieldError: (name: string) => string | null) => ReactNode);
  /** The field (by its name) each of the server's error codes is about; others are shown under the form. */
  readonly fieldOfError?: Readonly<Record<string, string>> | undefined;
  readonly submitLabel: string;
  /** Announced after a successful save. */
  readonly savedMessage: string;
  /** Saves the section; an {@link ApiError} is shown under the fields. */
  readonly onSubmit: () => Promise<void>;
}

/** A section of an entry's page with its own form, Update button and success message. */
export function SectionForm({
  title,
  children,
  fieldOfError = {},
  submitLabel,
  savedMessage,
  onSubmit,
}: SectionFormProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const errorField = error === null ? undefined : fieldOfError[error];
  const fieldError = (name: string) =>
    error !== null && errorField === name ? errorMessage(t, error) : null;

  async function submit(): Promise<void> {
    if (busy) return;
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await onSubmit();
      setSaved(true);
    } catch (caught) {
      const code = caught instanceof ApiError ? caught.code : "unexpected";
      setError(code);
      const field = fieldOfError[code];
      const element = field === undefined ? null : form.current?.elements.namedItem(field);
      // After the field shows its error, so that the error is read with it.
      if (element instanceof HTMLElement) setTimeout(() => element.focus(), 0);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 border-t border-slate-200 pt-6">
      <h2 id={headingId} className="text-xl font-semibold">
        {title}
      </h2>
      <form
        ref={form}
        noValidate
        aria-labelledby={headingId}
        onChange={() => setSaved(false)}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        className="flex flex-col gap-4"
      >
        {typeof children === "function" ? children(fieldError) : children}
        {error !== null && errorField === undefined && <Alert message={errorMessage(t, error)} />}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={busy}>
            {submitLabel}
          </Button>
          <p role="status" className="font-medium text-green-800">
            {saved ? savedMessage : ""}
          </p>
        </div>
      </form>
    </section>
  );
}
