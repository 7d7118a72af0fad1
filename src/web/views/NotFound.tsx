import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { useDocumentTitle } from "../documentTitle.ts";

export function NotFound() {
  const { t } = useTranslation();
  useDocumentTitle(t("notFound.title"));
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">{t("notFound.title")}</h1>
      <p className="mt-4">
        <Link to={pathFor("Home")} className="text-blue-800 underline underline-offset-4">
          {t("notFound.backHome")}
        </Link>
      </p>
    </>
  );
}
