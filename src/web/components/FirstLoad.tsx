/**
 * What the page shows while the router loads the first view's code: the empty background of the
 * layouts, light or dark as the system prefers, so that the page does not flash white in dark mode.
 */
export function FirstLoad() {
  return <div data-scheme="auto" aria-busy="true" className="min-h-screen bg-white dark:bg-slate-950" />;
}
