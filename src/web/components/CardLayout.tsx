import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import { Outlet } from "react-router";
import { contextQuery } from "../api.ts";
import { QueryError } from "./QueryError.tsx";
import { Footer } from "./Footer.tsx";
import { DoorIcon } from "./icons.tsx";
import { LanguageSwitch } from "./LanguageSwitch.tsx";

/**
 * The layout of pages a person reaches from an app (the sign-in flow, error pages): one centred card
 * on a quiet background with only the instance's name, the language switch and the footer, light or
 * dark as the system prefers. Its content is the matched view, or `children` when given.
 */
export function CardLayout({ children }: { readonly children?: ReactNode }) {
  const { t } = useTranslation();
  const context = useQuery(contextQuery);
  return (
    <div
      data-scheme="auto"
      // The focus ring is lighter on dark backgrounds, where the default blue is hard to see.
      className="flex min-h-screen flex-col bg-slate-100 text-slate-900 dark:bg-slate-950 dark:text-slate-100 dark:**:focus-visible:outline-blue-400"
    >
      <header className="mx-auto flex w-full max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
        <p className="flex min-w-0 items-center gap-2 font-semibold break-words text-slate-800 dark:text-slate-200">
          <DoorIcon />
          {context.data?.title ?? t("app.name")}
        </p>
        <LanguageSwitch />
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="flex flex-1 items-start justify-center px-3 pb-10 focus:outline-none sm:items-center sm:px-6 sm:pb-16"
      >
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white px-5 py-7 shadow-sm sm:p-9 dark:border-slate-800 dark:bg-slate-900 dark:shadow-none">
          {context.isError ? <QueryError error={context.error} /> : (children ?? <Outlet />)}
        </div>
      </main>
      <Footer />
    </div>
  );
}
