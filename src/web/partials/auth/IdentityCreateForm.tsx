import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { IdentityFields } from "../../../common/api/identity.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { TextAreaField, TextField } from "../../components/Field.tsx";
import { createIdentity } from "./flowApi.ts";

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

interface IdentityCreateFormProps {
  readonly flowId: string;
  readonly onCreated: (id: string) => void;
  readonly onCancel: () => void;
}

export function IdentityCreateForm({ flowId, onCreated, onCancel }: IdentityCreateFormProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [fields, setFields] = useState<Record<FieldName, string>>({
    username: "",
    email: "",
    givenName: "",
    fullName: "",
    pictureUrl: "",
    description: "",
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const errorField = error === null ? undefined : fieldOfError[error];
  const fieldError = (name: FieldName) => (errorField === name && error ? errorMessage(t, error) : null);

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
    try {
      onCreated(await createIdentity(flowId, filled));
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
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="flex flex-col gap-4 rounded-md border border-slate-300 p-4"
    >
      <h3 id={headingId} className="font-semibold">
        {t("authFlow.identityForm.heading")}
      </h3>
      <p className="text-sm text-slate-700">{t("authFlow.identityForm.hint")}</p>
      {inputs.map(({ name, type, autoComplete }, index) => (
        <TextField
          key={name}
          // The form opens on a click, so focus moves into it.
          autoFocus={index === 0}
          label={t(`authFlow.identityForm.${name}`)}
          error={fieldError(name)}
          name={name}
          type={type}
          autoComplete={autoComplete}
          value={fields[name]}
          onChange={(event) => setFields({ ...fields, [name]: event.target.value })}
        />
      ))}
      <TextAreaField
        label={t("authFlow.identityForm.description")}
        name="description"
        rows={3}
        value={fields.description}
        onChange={(event) => setFields({ ...fields, description: event.target.value })}
      />
      {error !== null && errorField === undefined && <Alert message={errorMessage(t, error)} />}
      <div className="flex flex-wrap gap-3">
        <Button type="submit">{t("authFlow.identityForm.create")}</Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("authFlow.identityForm.cancel")}
        </Button>
      </div>
    </form>
  );
}
