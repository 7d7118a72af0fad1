import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/index.ts";

/** How long "Copied" stays on the button after a copy. */
const confirmationMs = 2000;

/** The look of a small action beside a value (copy it, download it). */
export const smallActionClass =
  "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700";

/**
 * Puts `value` on the clipboard. `label` names what is copied ("Copy client ID"), since a page may
 * have several of these buttons side by side.
 */
export function CopyButton({ value, label }: { readonly value: string; readonly label: string }) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<"copied" | "failed" | null>(null);

  useEffect(() => {
    if (outcome === null) return;
    const timer = setTimeout(() => setOutcome(null), confirmationMs);
    return () => clearTimeout(timer);
  }, [outcome]);

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(value);
      setOutcome("copied");
    } catch {
      setOutcome("failed");
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" onClick={() => void copy()} className={smallActionClass}>
        {label}
      </button>
      <span role="status" className="text-sm text-slate-700 dark:text-slate-300">
        {outcome === "copied" ? t("common.copied") : outcome === "failed" ? t("common.copyFailed") : ""}
      </span>
    </span>
  );
}
