import { useRef, useState } from "react";
import { useTranslation } from "../i18n/index.ts";
import { ApiError, errorMessage } from "../api.ts";
import { Alert } from "./Alert.tsx";
import { Button } from "./Button.tsx";
import { TextAreaField, TextField } from "./Field.tsx";

interface CreateFormProps {
  readonly labelledBy: string;
  /** Asks for a description too. */
  readonly withDescription?: boolean;
  readonly onSubmit: (fields: { name: string; description?: string }) => Promise<void>;
  readonly onCancel: () => void;
}

/** A new entry by its name (and description): what the create pages ask. */
export function CreateForm({ labelledBy, withDescription = false, onSubmit, onCancel }: CreateFormProps) {
  const { t } = useTranslation();
  const nameInput = useRef<HTMLInputElement>(null);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(): Promise<void> {
    if (busy) return;
    if (name.trim() === "") {
      setError("nameRequired");
      nameInput.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(
        withDescription ? { name: name.trim(), description: description.trim() } : { name: name.trim() },
      );
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.code : "unexpected");
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      aria-labelledby={labelledBy}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="flex flex-col gap-4"
    >
      <TextField
        ref={nameInput}
        autoFocus
        required
        label={t("common.name")}
        name="name"
        value={name}
        error={error === "nameRequired" ? t("common.nameRequired") : null}
        onChange={(event) => setName(event.target.value)}
      />
      {withDescription && (
        <TextAreaField
          label={t("common.description")}
          name="description"
          rows={3}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      )}
      {error !== null && error !== "nameRequired" && <Alert message={errorMessage(t, error)} />}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={busy}>
          {t("common.create")}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
