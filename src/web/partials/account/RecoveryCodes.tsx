import { useEffect, useRef } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Button } from "../../components/Button.tsx";
import { CopyButton } from "../../components/CopyButton.tsx";

/** The file the codes download as: plain text, one code a line, with a line that says what they are. */
function codesFile(heading: string, codes: readonly string[]): string {
  const text = `${heading}\n\n${codes.join("\n")}\n`;
  return `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
}

/**
 * Recovery codes, shown once: the server keeps only their hashes. The person copies or downloads
 * them, and says they saved them before the panel goes away.
 */
export function RecoveryCodes({
  codes,
  onSaved,
}: {
  readonly codes: readonly string[];
  readonly onSaved: () => void;
}) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  // The codes appear where the person's action was: their heading gets the focus, so it is read.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="flex flex-col gap-4 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950">
      <div>
        <h3 ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
          {t("account.twoStep.codes.title")}
        </h3>
        <p className="text-slate-800 dark:text-slate-200">{t("account.twoStep.codes.hint")}</p>
      </div>
      <ul
        aria-label={t("account.twoStep.codes.title")}
        className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-md bg-white p-4 font-mono text-base tracking-wider text-slate-900 sm:grid-cols-5 dark:bg-slate-900 dark:text-slate-100"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <CopyButton value={codes.join("\n")} label={t("account.twoStep.codes.copy")} />
        <a
          href={codesFile(t("account.twoStep.codes.fileHeading"), codes)}
          download={t("account.twoStep.codes.fileName")}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
        >
          {t("account.twoStep.codes.download")}
        </a>
      </div>
      <div>
        <Button onClick={onSaved}>{t("account.twoStep.codes.saved")}</Button>
      </div>
    </div>
  );
}
