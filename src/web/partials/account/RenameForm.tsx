import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { credentialNameMaxLength } from "../../../common/limits.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { TextField } from "../../components/Field.tsx";
import { FormActions } from "../../components/FormActions.tsx";

interface RenameFormProps {
  readonly name: string;
  /** Saves the new name; an {@link ApiError} is shown under the field. */
  readonly onSave: (name: string) => Promise<void>;
  readonly onCancel: () => void;
}

/** A passkey's name in place, with Save and Cancel; the field has the focus while it is open. */
export function RenameForm({ name, onSave, onCancel }: RenameFormProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);

  async function save(): Promise<void> {
    if (busy) return;
    const trimmed = value.trim();
    if (trimmed === "") {
      setError(t("account.passkeys.nameRequired"));
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSave(trimmed);
    } catch (caught) {
      const code = caught instanceof ApiError ? caught.code : "unexpected";
      setError(errorMessage(t, code));
      input.current?.focus();
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <TextField
        ref={input}
        label={t("account.passkeys.renameLabel")}
        name="name"
        value={value}
        maxLength={credentialNameMaxLength}
        autoComplete="off"
        error={error}
        onChange={(event) => setValue(event.target.value)}
      />
      <FormActions submitLabel={t("account.passkeys.save")} busy={busy} onCancel={onCancel} />
    </form>
  );
}
