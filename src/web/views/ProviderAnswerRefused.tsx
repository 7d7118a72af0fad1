import type { PageError } from "../../common/api/page-error.ts";
import { pathFor } from "../../common/routes.ts";
import { ErrorAction, ErrorPanel } from "../components/ErrorPanel.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { useTranslation } from "../i18n/index.ts";
import { useProviderLabel } from "../providers.ts";
import { providerAnswerReason } from "./providerAnswerReason.ts";

/**
 * A third-party provider's answer that was refused (`providerCallbackInvalid`, `providerAnswerInvalid`):
 * what went wrong, and the way on. An answer for a sign-in still going on leads back to it, where the
 * person tries again or chooses another way; one for linking leads back to the account; one that
 * names neither can only be started again from the app.
 */
export function ProviderAnswerRefused({
  pageError,
  provider,
}: {
  readonly pageError: PageError;
  readonly provider: string;
}) {
  const { t } = useTranslation();
  const name = useProviderLabel()(provider);
  const title = t("errorPages.providerAnswer.title", { provider: name });
  useDocumentTitle(title);
  const { resume, reason } = pageError;
  const hint =
    resume === undefined
      ? "errorPages.providerAnswer.startAgain"
      : resume === "account"
        ? "errorPages.providerAnswer.accountUnchanged"
        : "errorPages.providerAnswer.tryAgain";
  return (
    <ErrorPanel
      title={title}
      message={`${t(providerAnswerReason(pageError), { provider: name })} ${t(hint)}`}
      detail={reason === undefined ? undefined : t("errorPages.providerAnswer.code", { code: reason })}
    >
      {resume === undefined ? (
        <ErrorAction to={pathFor("Home")}>{t("errorPages.backHome")}</ErrorAction>
      ) : resume === "account" ? (
        <ErrorAction to={pathFor("Account")}>{t("errorPages.providerAnswer.backToAccount")}</ErrorAction>
      ) : (
        <ErrorAction to={pathFor("AuthFlowGet", { id: resume.flowId })}>
          {t("errorPages.providerAnswer.backToSignIn")}
        </ErrorAction>
      )}
    </ErrorPanel>
  );
}
