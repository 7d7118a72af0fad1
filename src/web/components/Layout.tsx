import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { Outlet } from "react-router";
import { contextQuery, errorMessage } from "../api.ts";
import { setSignInError, useSignInError, useSigningIn } from "../session.ts";
import { Alert } from "./Alert.tsx";
import { Footer } from "./Footer.tsx";
import { UnsavedChangesGuard } from "./UnsavedChangesGuard.tsx";
import { NavBar } from "./NavBar.tsx";
import { PageSkeleton } from "./Skeleton.tsx";
import { QueryError } from "./QueryError.tsx";

export function Layout() {
  const { t } = useTranslation();
  const context = useQuery(contextQuery);
  const signInError = useSignInError();
  const signingIn = useSigningIn();

  return (
    <div
      data-scheme="auto"
      className="flex min-h-screen flex-col bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100 dark:**:focus-visible:outline-blue-400"
    >
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-10 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 dark:focus:bg-slate-900"
      >
        {t("app.skipToContent")}
      </a>
      <NavBar />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 focus:outline-none sm:px-6 sm:py-10"
      >
        {signInError !== null && (
          <Alert message={errorMessage(t, signInError)} onDismiss={() => setSignInError(null)} />
        )}
        {context.isError ? (
          <QueryError error={context.error} />
        ) : context.isPending || signingIn ? (
          // Views wait for the context document and the sign-in at start-up.
          <PageSkeleton />
        ) : (
          <>
            <Outlet />
            <UnsavedChangesGuard />
          </>
        )}
      </main>
      <Footer />
    </div>
  );
}
