import { useTranslation } from "../i18n/index.ts";
import { pathFor } from "../../common/routes.ts";
import { ErrorAction, ErrorPanel } from "../components/ErrorPanel.tsx";
import { useDocumentTitle } from "../documentTitle.ts";

/** An address that names no page: said by the server (a 404) or by the web app's router. */
export function NotFound() {
  const { t } = useTranslation();
  useDocumentTitle(t("errorPages.notFound.title"));
  return (
    <ErrorPanel tone="gone" title={t("errorPages.notFound.title")} message={t("errorPages.notFound.message")}>
      <ErrorAction to={pathFor("Home")}>{t("errorPages.backHome")}</ErrorAction>
    </ErrorPanel>
  );
}
