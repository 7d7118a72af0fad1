/** Short labels after a name (spec §3: admin, current, disabled, blocked, ...). */
export function Labels({ labels }: { readonly labels: string[] }) {
  return labels.map((label) => (
    <span
      key={label}
      className="ml-2 inline-block rounded bg-slate-200 px-2 py-0.5 align-middle text-xs font-medium text-slate-800 dark:bg-slate-700 dark:text-slate-100"
    >
      {label}
    </span>
  ));
}
