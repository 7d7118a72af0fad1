import type { ReactNode } from "react";

/** An entry's fields as label and value; empty ones are left out. */
export function DetailList({ fields }: { readonly fields: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
      {fields
        .filter(([, value]) => Boolean(value))
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium">{label}</dt>
            <dd className="break-words whitespace-pre-wrap text-slate-800 dark:text-slate-200">{value}</dd>
          </div>
        ))}
    </dl>
  );
}
