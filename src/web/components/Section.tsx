import { useId, type ReactNode } from "react";

const looks = {
  /** Under a rule, one after another down the page. */
  plain: "flex flex-col gap-4 border-t border-slate-200 pt-6 dark:border-slate-700",
  /** A card of its own, reached by its anchor below the page's sticky headers (the account page). */
  card: "flex scroll-mt-32 flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 lg:scroll-mt-24 dark:border-slate-800 dark:bg-slate-900",
} as const;

/** A titled part of a page, named by its heading for assistive technology. */
export function Section({
  title,
  children,
  id,
  look = "plain",
}: {
  readonly title: string;
  readonly children: ReactNode;
  /** The anchor a link to this part names. */
  readonly id?: string | undefined;
  readonly look?: keyof typeof looks;
}) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className={looks[look]}>
      <h2 id={headingId} className={look === "card" ? "text-lg font-semibold" : "text-xl font-semibold"}>
        {title}
      </h2>
      {children}
    </section>
  );
}
