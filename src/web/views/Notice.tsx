import { useTranslation } from "../i18n/index.ts";
import { DocumentPage } from "../partials/about/DocumentPage.tsx";

/** The product's notice (copyright and what it is built on), as a page. */
export function Notice() {
  const { t } = useTranslation();
  return <DocumentPage document="Notice" title={t("about.notice")} />;
}
