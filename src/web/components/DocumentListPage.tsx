import { useQuery, type UseQueryOptions } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { DocumentSummary } from "../../common/api/summary.ts";
import { pathFor, type RouteName } from "../../common/routes.ts";
import { useDocumentTitle } from "../documentTitle.ts";
import { useSignedIn } from "../session.ts";
import { QueryError } from "./QueryError.tsx";
import { SignInPrompt } from "./SignInPrompt.tsx";
import { SummaryList } from "./SummaryList.tsx";

/** The i18n key prefixes of documents listed by {@link DocumentListPage}. */
export type DocumentListKeys = "templates" | "organizations";

/** All documents of one kind (spec §2): public; signed-in people can create one. */
export function DocumentListPage({
  query,
  keys,
  createRoute,
  itemRoute,
}: {
  readonly query: UseQueryOptions<DocumentSummary[], Error, DocumentSummary[], string[]>;
  /** Prefix of the page's texts: `title`, `create`, `empty`, `emptySignedOut` and `count`. */
  readonly keys: DocumentListKeys;
  readonly createRoute: RouteName;
  /** The page of one document, with its `id`. */
  readonly itemRoute: RouteName;
}) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const items = useQuery(query);
  useDocumentTitle(t(`${keys}.title`));

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">{t(`${keys}.title`)}</h1>
        {signedIn && (
          <Link
            to={pathFor(createRoute)}
            className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
          >
            {t(`${keys}.create`)}
          </Link>
        )}
      </div>
      <div className="mt-6">
        {items.data !== undefined ? (
          items.data.length === 0 ? (
            signedIn ? (
              <p>{t(`${keys}.empty`)}</p>
            ) : (
              <SignInPrompt message={t(`${keys}.emptySignedOut`)} />
            )
          ) : (
            <>
              <p className="mb-4 text-slate-700">{t(`${keys}.count`, { count: items.data.length })}</p>
              <SummaryList
                items={items.data}
                link={(id) => pathFor(itemRoute, { id })}
                labels={(item) => (item.canUpdate ? [t("common.labels.admin")] : [])}
              />
            </>
          )
        ) : items.isError ? (
          <QueryError error={items.error} />
        ) : (
          <p role="status">{t("app.loading")}</p>
        )}
      </div>
    </>
  );
}
