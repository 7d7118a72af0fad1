import { useTranslation } from "../../i18n/index.ts";
import type { Step } from "./steps.ts";

export interface StepperItem {
  readonly step: Exclude<Step, "manual" | "recoveryCodes" | "keepAccount">;
  /** Set when the person may go back to this step from the current one. */
  readonly onSelect?: (() => void) | undefined;
}

interface StepperProps {
  readonly items: StepperItem[];
  readonly current: Step;
}

/**
 * The flow's steps as a row of bars, filled up to the current one. Phones name only the current step
 * ("Step 2 of 4: Password"); wider screens name each under its bar. Earlier steps one may return to
 * are buttons.
 */
export function Stepper({ items, current }: StepperProps) {
  const { t } = useTranslation();
  // The manual redirect ends the flow as the redirect does; the recovery codes end the second factor.
  // Keeping an account pending deletion comes at the identity step, before one is chosen.
  const shownAs =
    current === "manual"
      ? "redirect"
      : current === "recoveryCodes"
        ? "secondFactor"
        : current === "keepAccount"
          ? "identity"
          : current;
  const currentIndex = items.findIndex(({ step }) => step === shownAs);
  const currentItem = items[currentIndex];
  return (
    <nav aria-label={t("authFlow.steps.label")} className="flex flex-col gap-2">
      {currentItem && (
        // Said by the list itself (aria-current) to assistive technology.
        <p aria-hidden="true" className="text-sm text-slate-600 sm:hidden dark:text-slate-400">
          {t("authFlow.steps.progress", { current: currentIndex + 1, total: items.length })}
          {": "}
          <span className="font-semibold text-slate-900 dark:text-white">
            {t(`authFlow.steps.${currentItem.step}`)}
          </span>
        </p>
      )}
      <ol className="flex gap-1.5">
        {items.map(({ step, onSelect }, index) => {
          const isCurrent = index === currentIndex;
          const bar =
            index <= currentIndex ? "bg-blue-700 dark:bg-blue-400" : "bg-slate-200 dark:bg-slate-700";
          const label = isCurrent
            ? "font-semibold text-slate-900 dark:text-white"
            : onSelect
              ? "text-blue-800 underline underline-offset-2 dark:text-blue-300"
              : "text-slate-600 dark:text-slate-400";
          const content = (
            <>
              <span aria-hidden="true" className={`block h-1.5 w-full rounded-full ${bar}`} />
              <span className={`text-xs max-sm:sr-only ${label}`}>{t(`authFlow.steps.${step}`)}</span>
            </>
          );
          return (
            <li key={step} className="min-w-0 flex-1" aria-current={isCurrent ? "step" : undefined}>
              {onSelect ? (
                <button
                  type="button"
                  onClick={onSelect}
                  className="flex w-full flex-col gap-1.5 rounded-sm py-1 text-start"
                >
                  {content}
                </button>
              ) : (
                <span className="flex flex-col gap-1.5 py-1">{content}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
