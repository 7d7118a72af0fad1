import { useId, useRef, useState } from "react";
import { Button } from "../../components/Button.tsx";
import { CopyButton, smallActionClass } from "../../components/CopyButton.tsx";
import { CheckboxField } from "../../components/Field.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { ShieldCheckIcon } from "../../components/icons.tsx";
import { StepHeading } from "./StepHeading.tsx";
import { useFocusOnMount } from "./useStepAction.ts";

interface RecoveryCodesStepProps {
  /** The account's new recovery codes: the server shows them this once. */
  readonly codes: readonly string[];
  /** On to the identity step, once the person says they saved the codes. */
  readonly onContinue: () => void;
}

/** The second factor is set up: its recovery codes, to copy or download before going on. */
export function RecoveryCodesStep({ codes, onContinue }: RecoveryCodesStepProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const errorId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmation = useRef<HTMLInputElement>(null);
  const [saved, setSaved] = useState(false);
  const [unconfirmed, setUnconfirmed] = useState(false);
  useFocusOnMount(heading);

  const text = codes.join("\n");
  function download(): void {
    const title = t("authFlow.recoveryCodes.fileTitle", { site: window.location.host });
    const file = new Blob([`${title}\n\n${text}\n`], { type: "text/plain;charset=utf-8" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = t("authFlow.recoveryCodes.fileName");
    link.click();
    URL.revokeObjectURL(link.href);
  }

  return (
    <form
      noValidate
      aria-labelledby={headingId}
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        if (saved) onContinue();
        else {
          setUnconfirmed(true);
          confirmation.current?.focus();
        }
      }}
    >
      <p className="inline-flex items-center gap-2 self-start rounded-full bg-green-50 py-1 ps-2 pe-3 text-sm font-medium text-green-800 dark:bg-green-950 dark:text-green-200">
        <ShieldCheckIcon className="size-4" />
        {t("authFlow.recoveryCodes.done")}
      </p>
      <div className="flex flex-col gap-2">
        <StepHeading id={headingId} ref={heading}>
          {t("authFlow.recoveryCodes.heading")}
        </StepHeading>
        <p className="text-slate-700 dark:text-slate-300">{t("authFlow.recoveryCodes.intro")}</p>
      </div>
      <div className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
        <ul
          aria-label={t("authFlow.recoveryCodes.list", { count: codes.length })}
          className="grid grid-cols-2 gap-x-4 gap-y-2 font-mono text-base text-slate-900 sm:text-lg dark:text-slate-100"
        >
          {codes.map((code) => (
            <li key={code} className="text-center tracking-wide">
              {code}
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap items-center justify-center gap-3 border-t border-slate-200 pt-3 dark:border-slate-700">
          <CopyButton value={text} label={t("authFlow.recoveryCodes.copy")} />
          <button type="button" onClick={download} className={smallActionClass}>
            {t("authFlow.recoveryCodes.download")}
          </button>
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <CheckboxField
          ref={confirmation}
          label={t("authFlow.recoveryCodes.saved")}
          checked={saved}
          aria-invalid={unconfirmed && !saved ? true : undefined}
          aria-errormessage={unconfirmed && !saved ? errorId : undefined}
          onChange={(event) => setSaved(event.target.checked)}
        />
        {unconfirmed && !saved && (
          <p id={errorId} className="text-sm font-medium text-red-800 dark:text-red-300">
            {t("authFlow.recoveryCodes.savedRequired")}
          </p>
        )}
      </div>
      <Button type="submit" size="large" className="w-full">
        {t("authFlow.recoveryCodes.continue")}
      </Button>
    </form>
  );
}
