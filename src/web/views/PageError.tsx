import { useEffect } from "react";
import { useTranslation } from "../i18n/index.ts";
import { errorCodes } from "../../common/api/errors.ts";
import type { PageError as PageErrorData } from "../../common/api/page-error.ts";
import { pathFor } from "../../common/routes.ts";
import { errorMessage } from "../api.ts";
import { ErrorAction, ErrorPanel } from "../components/ErrorPanel.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { followRequestedLocale } from "../i18n/index.ts";
import { NotFound } from "./NotFound.tsx";
import { ProviderAnswerRefused } from "./ProviderAnswerRefused.tsx";

/** The OIDC engine's errors a person can land on that have words of their own. */
const engineErrors = [
  "invalid_client",
  "invalid_redirect_uri",
  "invalid_request",
  "server_error",
  // Vrata's word for a client of a disabled organization.
  "organizationDisabled",
] as const;
type EngineError = (typeof engineErrors)[number] | "other";

const isVrataError = (code: string) => (errorCodes as readonly string[]).includes(code);
const isKnownEngineError = (code: string): code is (typeof engineErrors)[number] =>
  (engineErrors as readonly string[]).includes(code);

/** A third-party provider's answer that was refused; it is used once, so loading it again cannot help. */
const isProviderAnswerError = (code: string) =>
  code === "providerCallbackInvalid" || code === "providerAnswerInvalid";

/**
 * The page the server answered with an error: an unknown path, a fault of the server, a third-party
 * provider's answer that was refused, or the OIDC engine refusing a request it cannot send back to
 * the app. Vrata's own error codes are listed in common/api/errors.ts; any other code is the
 * engine's (OAuth's).
 */
export function PageError({ pageError }: { readonly pageError: PageErrorData }) {
  const { error, requestId, locale, app } = pageError;
  useEffect(() => {
    if (locale) followRequestedLocale(locale);
  }, [locale]);
  if (error === "notFound") return <NotFound />;
  if (pageError.provider !== undefined && isProviderAnswerError(error))
    return <ProviderAnswerRefused pageError={pageError} provider={pageError.provider} />;
  if (isVrataError(error)) return <ServerFault code={error} requestId={requestId} />;
  return (
    <EngineRefusal
      kind={isKnownEngineError(error) ? error : "other"}
      code={error}
      requestId={requestId}
      app={app}
    />
  );
}

function ServerFault({
  code,
  requestId,
}: {
  readonly code: string;
  readonly requestId?: string | undefined;
}) {
  const { t } = useTranslation();
  useDocumentTitle(t("errorPages.fault.title"));
  return (
    <ErrorPanel title={t("errorPages.fault.title")} message={errorMessage(t, code)} requestId={requestId}>
      {!isProviderAnswerError(code) && (
        <ErrorAction onClick={() => window.location.reload()}>{t("errorPages.tryAgain")}</ErrorAction>
      )}
      <ErrorAction to={pathFor("Home")} variant={isProviderAnswerError(code) ? "primary" : "secondary"}>
        {t("errorPages.backHome")}
      </ErrorAction>
    </ErrorPanel>
  );
}

function EngineRefusal({
  kind,
  code,
  requestId,
  app,
}: {
  readonly kind: EngineError;
  readonly code: string;
  readonly requestId?: string | undefined;
  readonly app?: PageErrorData["app"];
}) {
  const { t } = useTranslation();
  const title = t(`errorPages.engine.${kind}.title`);
  useDocumentTitle(title);
  return (
    <ErrorPanel
      title={title}
      message={t(`errorPages.engine.${kind}.message`)}
      requestId={requestId}
      detail={t("errorPages.errorCode", { code })}
    >
      {app ? (
        <ErrorAction href={app.homepage}>{t("errorPages.backToApp", { app: app.name })}</ErrorAction>
      ) : (
        <ErrorAction to={pathFor("Home")}>{t("errorPages.backHome")}</ErrorAction>
      )}
    </ErrorPanel>
  );
}
