import { useTranslation } from "../i18n/index.ts";
import { Button } from "./Button.tsx";

/** A small form's buttons: the one that submits it (busy while it runs), and Cancel. */
export function FormActions({
  submitLabel,
  busy,
  onCancel,
}: {
  readonly submitLabel: string;
  readonly busy: boolean;
  readonly onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" busy={busy}>
        {submitLabel}
      </Button>
      <Button variant="secondary" disabled={busy} onClick={onCancel}>
        {t("common.cancel")}
      </Button>
    </div>
  );
}
