import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { Link } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { CopyButton } from "../components/CopyButton.tsx";
import { DetailList } from "../components/DetailList.tsx";
import { QueryError } from "../components/QueryError.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { aboutQuery } from "../partials/about/aboutApi.ts";
import { cardLinkStyle } from "../partials/about/DocumentPage.tsx";
import { Identifier } from "../components/Identifier.tsx";

/** About this instance: where "Powered by Vrata" leads. */
export function About() {
  const { t } = useTranslation();
  const about = useQuery(aboutQuery);
  const title = t("about.title", { title: about.data?.title ?? t("app.name") });
  useDocumentTitle(title);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">{title}</h1>
      {about.isPending ? (
        <p role="status">{t("app.loading")}</p>
      ) : about.isError ? (
        <QueryError error={about.error} />
      ) : (
        <>
          <div className="flex flex-col gap-3 text-slate-700 dark:text-slate-300">
            <p>{t("about.instance", { title: about.data.title })}</p>
            <p>{t("about.whatIsVrata")}</p>
          </div>
          <DetailList
            fields={[
              [t("about.version"), about.data.version],
              [
                t("about.issuer"),
                <span key="issuer" className="flex flex-col items-start gap-2">
                  <code className="text-sm">
                    <Identifier value={about.data.issuer} />
                  </code>
                  <CopyButton value={about.data.issuer} label={t("about.copyIssuer")} />
                </span>,
              ],
            ]}
          />
          <nav aria-label={t("about.documents")}>
            <ul className="flex flex-wrap gap-x-6 gap-y-2">
              <li>
                <Link to={pathFor("License")} className={cardLinkStyle}>
                  {t("about.license")}
                </Link>
              </li>
              <li>
                <Link to={pathFor("Notice")} className={cardLinkStyle}>
                  {t("about.notice")}
                </Link>
              </li>
              <li>
                <Link to={pathFor("Home")} className={cardLinkStyle}>
                  {t("errorPages.backHome")}
                </Link>
              </li>
            </ul>
          </nav>
        </>
      )}
    </div>
  );
}
