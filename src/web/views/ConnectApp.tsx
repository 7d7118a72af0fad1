import { useId } from "react";
import { pathFor } from "../../common/routes.ts";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { useTranslation } from "../i18n/index.ts";
import { ConnectAppForm } from "../partials/connect-app/ConnectAppForm.tsx";
import { useSignedIn } from "../session.ts";

/** Connecting an app in one step: its template, organization and client; ends on the app's page. */
export function ConnectApp() {
  const { t } = useTranslation();
  const headingId = useId();
  const signedIn = useSignedIn();
  useDocumentTitle(t("connectApp.title"));

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <Breadcrumbs
        trail={[{ label: t("nav.sections.home"), to: pathFor("Home") }]}
        current={t("connectApp.title")}
      />
      <div className="flex flex-col gap-2">
        <h1 id={headingId} className="text-3xl font-bold tracking-tight">
          {t("connectApp.title")}
        </h1>
        <p className="max-w-prose text-slate-700 dark:text-slate-300">{t("connectApp.intro")}</p>
      </div>
      {signedIn ? (
        <ConnectAppForm labelledBy={headingId} />
      ) : (
        <SignInPrompt message={t("connectApp.signedOut")} />
      )}
    </div>
  );
}
