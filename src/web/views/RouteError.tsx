import { useTranslation } from "../i18n/index.ts";
import { useRouteError } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { ApiError, errorMessage } from "../api.ts";
import { ErrorAction, ErrorPanel } from "../components/ErrorPanel.tsx";

/** What a view shows when rendering it failed, with the server's request ID when a call failed there. */
export function RouteErrorPanel({ error }: { readonly error: unknown }) {
  const { t } = useTranslation();
  const apiError = error instanceof ApiError ? error : undefined;
  return (
    <ErrorPanel
      title={t("errorPages.fault.title")}
      message={errorMessage(t, apiError?.code ?? "unexpected")}
      requestId={apiError?.requestId}
    >
      <ErrorAction onClick={() => window.location.reload()}>{t("errorPages.tryAgain")}</ErrorAction>
      <ErrorAction to={pathFor("Home")} variant="secondary">
        {t("errorPages.backHome")}
      </ErrorAction>
    </ErrorPanel>
  );
}

/** The error boundary of the console's router. */
export function RouteError() {
  return <RouteErrorPanel error={useRouteError()} />;
}
