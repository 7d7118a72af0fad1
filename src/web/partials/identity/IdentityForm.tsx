import { useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { IdentityFields } from "../../../common/api/identity.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { TextAreaField, TextField } from "../../components/Field.tsx";

type FieldName = keyof IdentityFields;

/** At least one of these is needed (spec §3). */
const identifyingFields: FieldName[] = ["username", "email", "givenName", "fullName", "pictureUrl"];

/** The field each of the server's error codes is about. */
const fieldOfError: Partial<Record<string, FieldName>> = {
  emptyIdentity: "username",
  invalidUsername: "username",
  invalidEmail: "email",
  invalidPictureUrl: "pictureUrl",
};

const inputs: { name: Exclude<FieldName, "description">; type: string; autoComplete: string }[] = [
  { name: "username", type: "text", autoComplete: "username" },
  { name: "email", type: "email", autoComplete: "email" },
  { name: "givenName", type: "text", autoComplete: "given-name" },
  { name: "fullName", type: "text", autoComplete: "name" },
  { name: "pictureUrl", type: "url", autoComplete: "photo" },
];

interface IdentityFormProps {
  /** ID of the heading that names the form. */
  readonly labelledBy: string;
  /** The values the fields start with (an identity being changed). */
  readonly initial?: IdentityFields | undefined;
  readonly submitLabel: string;
  /** Saves the filled-in fields (trimmed, empty ones left out); an {@link ApiError} is shown. */
  readonly onSubmit: (fields: IdentityFields) => Promise<void>;
  readonly onCancel?: (() => void) | undefined;
  /** Announced after a successful save, until the next change. */
  readonly savedMessage?: string | undefined;
  /** Focus moves to the first field: the form opened because the person asked for it. */
  readonly autoFocus?: boolean | undefined;
}

/** The fields of an identity, to create one (in the auth flow or the console) or to change one. */
export function IdentityForm({
  labelledBy,
  initial = {},
  submitLabel,
  onSubmit,
  onCancel,
  savedMessage,
  autoFocus = false,
}: IdentityFormProps) {
  const { t } = useTranslation();
  const form = useRef<HTMLFormElement>(null);
  const [fields, setFields] = useState<Record<FieldName, string>>(() => ({
    username: initial.username ?? "",
    email: initial.email ?? "",
    givenName: initial.givenName ?? "",
    fullName: initial.fullName ?? "",
    pictureUrl: initial.pictureUrl ?? "",
    description: initial.description ?? "",
  }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const errorField = error === null ? undefined : fieldOfError[error];
  const fieldError = (name: FieldName) => (errorField === name && error ? errorMessage(t, error) : null);

  function change(name: FieldName, value: string): void {
    setFields({ ...fields, [name]: value });
    setSaved(false);
  }

  function fail(code: string): void {
    setError(code);
    const field = fieldOfError[code];
    const element = field && form.current?.elements.namedItem(field);
    if (element instanceof HTMLElement) element.focus();
  }

  async function submit(): Promise<void> {
    if (busy) return;
    const filled: IdentityFields = {};
    for (const [name, value] of Object.entries(fields) as [FieldName, string][]) {
      if (value.trim() !== "") filled[name] = value.trim();
    }
    if (!identifyingFields.some((name) => filled[name] !== undefined)) {
      fail("emptyIdentity");
      return;
    }
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await onSubmit(filled);
      setSaved(true);
    } catch (caught) {
      fail(caught instanceof ApiError ? caught.code : "unexpected");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      ref={form}
      noValidate
      aria-labelledby={labelledBy}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="flex flex-col gap-4"
    >
      <p className="text-sm text-slate-700 dark:text-slate-300">{t("identities.form.hint")}</p>
      {inputs.map(({ name, type, autoComplete }, index) => (
        <TextField
          key={name}
          autoFocus={autoFocus && index === 0}
          label={t(`identities.fields.${name}`)}
          error={fieldError(name)}
          name={name}
          type={type}
          autoComplete={autoComplete}
          value={fields[name]}
          onChange={(event) => change(name, event.target.value)}
        />
      ))}
      <TextAreaField
        label={t("identities.fields.description")}
        name="description"
        rows={3}
        value={fields.description}
        onChange={(event) => change("description", event.target.value)}
      />
      {error !== null && errorField === undefined && <Alert message={errorMessage(t, error)} />}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            {t("identities.form.cancel")}
          </Button>
        )}
        {savedMessage !== undefined && (
          <p role="status" className="font-medium text-green-800 dark:text-green-300">
            {saved ? savedMessage : ""}
          </p>
        )}
      </div>
    </form>
  );
}
