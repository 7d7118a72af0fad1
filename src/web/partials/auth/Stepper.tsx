import { useTranslation } from "react-i18next";
import type { Step } from "./steps.ts";

export interface StepperItem {
  readonly step: Exclude<Step, "manual">;
  /** Set when the person may go back to this step from the current one. */
  readonly onSelect?: (() => void) | undefined;
}

interface StepperProps {
  readonly items: StepperItem[];
  readonly current: Step;
}

export function Stepper({ items, current }: StepperProps) {
  const { t } = useTranslation();
  const currentIndex = items.findIndex(({ step }) => step === (current === "manual" ? "redirect" : current));
  return (
    <nav aria-label={t("authFlow.steps.label")}>
      <ol className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
        {items.map(({ step, onSelect }, index) => {
          const isCurrent = index === currentIndex;
          const badge = isCurrent
            ? "bg-blue-700 text-white"
            : index < currentIndex
              ? "bg-slate-700 text-white"
              : "border border-slate-400 text-slate-700";
          return (
            <li key={step} className="flex items-center gap-2" aria-current={isCurrent ? "step" : undefined}>
              <span
                aria-hidden="true"
                className={`inline-flex size-6 items-center justify-center rounded-full text-xs font-semibold ${badge}`}
              >
                {index + 1}
              </span>
              {onSelect ? (
                <button
                  type="button"
                  onClick={onSelect}
                  className="text-blue-800 underline underline-offset-4 hover:text-blue-900"
                >
                  {t(`authFlow.steps.${step}`)}
                </button>
              ) : (
                <span className={isCurrent ? "font-semibold" : "text-slate-700"}>
                  {t(`authFlow.steps.${step}`)}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
