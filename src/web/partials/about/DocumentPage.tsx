import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../../i18n/index.ts";
import { Link } from "react-router";
import { pathFor } from "../../../common/routes.ts";
import { QueryError } from "../../components/QueryError.tsx";
import { useDocumentTitle } from "../../documentTitle.ts";
import { documentTextQuery } from "./aboutApi.ts";
import { paragraphsOf } from "./paragraphs.ts";

export const cardLinkStyle =
  "font-medium text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-200";

/** A license document of the product (License, Notice), its plain text set as flowing paragraphs. */
export function DocumentPage({
  document,
  title,
}: {
  readonly document: "License" | "Notice";
  readonly title: string;
}) {
  const { t, language } = useTranslation();
  const text = useQuery(documentTextQuery(document));
  useDocumentTitle(title);
  return (
    <article className="flex flex-col gap-6">
      <p className="text-sm">
        <Link to={pathFor("About")} className={cardLinkStyle}>
          {t("about.backToAbout")}
        </Link>
      </p>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      {language !== "en" && (
        <p className="text-sm text-slate-700 dark:text-slate-300">{t("about.inEnglish")}</p>
      )}
      {text.isPending ? (
        <p role="status">{t("app.loading")}</p>
      ) : text.isError ? (
        <QueryError error={text.error} />
      ) : (
        <div
          lang="en"
          className="flex flex-col gap-3 text-sm leading-relaxed text-slate-800 dark:text-slate-200"
        >
          {paragraphsOf(text.data.text).map((paragraph, index) => (
            <p key={index} className="break-words whitespace-pre-line">
              {paragraph}
            </p>
          ))}
        </div>
      )}
    </article>
  );
}
