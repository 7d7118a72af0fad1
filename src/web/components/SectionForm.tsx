import { useId, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import { ApiError, errorMessage } from "../api.ts";
import { Alert } from "./Alert.tsx";
import { Button } from "./Button.tsx";
import { useUnsavedChanges } from "./UnsavedChangesGuard.tsx";

interface SectionFormProps {
  readonly title: string;
  /**
   * The section's fields; `fieldError(name)` is the message of an error the server says is about the
   * field of that name (its dotted path in the request). Other errors are shown under the form.
   */
  readonly children: ReactNode | ((fieldError: (name: string) => string | null) => ReactNode);
  readonly submitLabel: string;
  /** Announced after a successful save. */
  readonly savedMessage: string;
  /** Saves the section; an {@link ApiError} is shown under the fields. */
  readonly onSubmit: () => Promise<void>;
}

/** A section of an entry's page with its own form, one save button and success message. */
export function SectionForm({ title, children, submitLabel, savedMessage, onSubmit }: SectionFormProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  /** The failed save, and whether a field of the section shows it. */
  const [error, setError] = useState<{ failure: ApiError; atField: boolean } | null>(null);
  const [saved, setSaved] = useState(false);
  /** Edited since the last save: leaving the page asks first. */
  const [edited, setEdited] = useState(false);
  useUnsavedChanges(edited);
  const form = useRef<HTMLFormElement>(null);
  const message = (failure: ApiError) => errorMessage(t, failure.code, failure.values);
  const fieldError = (name: string) =>
    error?.atField && error.failure.field === name ? message(error.failure) : null;

  async function submit(): Promise<void> {
    if (busy) return;
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await onSubmit();
      setSaved(true);
      setEdited(false);
    } catch (caught) {
      const failure = caught instanceof ApiError ? caught : new ApiError("unexpected", 0);
      const element = form.current?.elements.namedItem(failure.field ?? "");
      setError({ failure, atField: element instanceof HTMLElement });
      // After the field shows its error, so that the error is read with it.
      if (element instanceof HTMLElement) setTimeout(() => element.focus(), 0);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 border-t border-slate-200 pt-6 dark:border-slate-700"
    >
      <h2 id={headingId} className="text-xl font-semibold">
        {title}
      </h2>
      <form
        ref={form}
        noValidate
        aria-labelledby={headingId}
        onChange={() => {
          setSaved(false);
          setEdited(true);
        }}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        className="flex flex-col gap-4"
      >
        {typeof children === "function" ? children(fieldError) : children}
        {error !== null && !error.atField && <Alert message={message(error.failure)} />}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" busy={busy}>
            {submitLabel}
          </Button>
          <p role="status" className="font-medium text-green-800 dark:text-green-300">
            {saved ? savedMessage : ""}
          </p>
        </div>
      </form>
    </section>
  );
}
