import { useTranslation } from "react-i18next";
import { Button } from "./Button.tsx";
import { TextField } from "./Field.tsx";

/** Editable list of IDs (admins): one input each, with Add and Remove. */
export function IdList({
  label,
  addLabel,
  values,
  onChange,
}: {
  readonly label: string;
  readonly addLabel: string;
  readonly values: string[];
  readonly onChange: (values: string[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-3">
      {values.map((value, index) => (
        <div key={index} className="flex items-end gap-3">
          <div className="flex-1">
            <TextField
              label={`${label} ${index + 1}`}
              className="font-mono"
              value={value}
              onChange={(event) => onChange(values.map((v, i) => (i === index ? event.target.value : v)))}
            />
          </div>
          <Button
            variant="secondary"
            aria-label={`${t("common.remove")}: ${label} ${index + 1}`}
            onClick={() => onChange(values.filter((_, i) => i !== index))}
          >
            {t("common.remove")}
          </Button>
        </div>
      ))}
      <div>
        <Button variant="secondary" onClick={() => onChange([...values, ""])}>
          {addLabel}
        </Button>
      </div>
    </div>
  );
}
