import { useTranslation } from "../../i18n/index.ts";
import type { LifespanInput } from "./lifespan.ts";

/** Lifespans in words ("1 hour", "30 days"); an empty one is a lifespan without end. */
export function useLifespanText(): (input: LifespanInput) => string {
  const { t } = useTranslation();
  return (input) => {
    const amount = input.amount.trim();
    if (amount === "") return t("templates.lifespan.unlimited");
    const count = Number(amount.replace(",", "."));
    return `${amount} ${t(`templates.lifespan.units.${input.unit}`, { count })}`;
  };
}
