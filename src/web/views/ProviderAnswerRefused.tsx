import type { PageError } from "../../common/api/page-error.ts";
import { pathFor } from "../../common/routes.ts";
import { ErrorAction, ErrorPanel } from "../components/ErrorPanel.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { useTranslation, type TextKey } from "../i18n/index.ts";
import { useProviderLabel } from "../providers.ts";

/** What went wrong with a provider's answer, in the person's words, by the check it failed. */
const reasonTexts: Partial<Record<string, TextKey>> = {
  samlResponseMalformed: "errorPages.providerAnswer.malformed",
  samlSignatureInvalid: "errorPages.providerAnswer.notFromProvider",
  samlIssuerMismatch: "errorPages.providerAnswer.notFromProvider",
  samlAudienceMismatch: "errorPages.providerAnswer.otherService",
  samlExpired: "errorPages.providerAnswer.expired",
  samlNotYetValid: "errorPages.providerAnswer.clock",
  samlInResponseToMismatch: "errorPages.providerAnswer.otherSignIn",
  samlRelayStateMismatch: "errorPages.providerAnswer.otherSignIn",
  samlTransientNameId: "errorPages.providerAnswer.noIdentifier",
  samlNameIdFormat: "errorPages.providerAnswer.noIdentifier",
  samlSubjectMissing: "errorPages.providerAnswer.noIdentifier",
};

function whatWentWrong({ error, reason, resume }: PageError): TextKey {
  if (error === "providerCallbackInvalid")
    return resume === undefined
      ? "errorPages.providerAnswer.notValidHere"
      : "errorPages.providerAnswer.notWaited";
  return (reason === undefined ? undefined : reasonTexts[reason]) ?? "errorPages.providerAnswer.notVerified";
}

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
      message={`${t(whatWentWrong(pageError), { provider: name })} ${t(hint)}`}
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
