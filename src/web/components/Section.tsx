import { useId, type ReactNode } from "react";

/** A titled part of a page, named by its heading for assistive technology; `id` makes it a link's target. */
export function Section({
  title,
  id,
  children,
}: {
  readonly title: string;
  readonly id?: string;
  readonly children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="flex flex-col gap-4 border-t border-slate-200 pt-6 dark:border-slate-700"
    >
      <h2 id={headingId} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
