import { useTranslation } from "../i18n/index.ts";
import { DocumentPage } from "../partials/about/DocumentPage.tsx";

/** The product's license, as a page (tools get the plain text at the same address). */
export function License() {
  const { t } = useTranslation();
  return <DocumentPage document="License" title={t("about.license")} />;
}
