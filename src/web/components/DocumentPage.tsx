import { useQuery, type UseQueryOptions } from "@tanstack/react-query";
import { Fragment, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { pathFor, type RouteName } from "../../common/routes.ts";
import { useDocumentTitle } from "../documentTitle.ts";
import { BackLink } from "./BackLink.tsx";
import { DetailList } from "./DetailList.tsx";
import { Labels } from "./Labels.tsx";
import { QueryError } from "./QueryError.tsx";

/** The i18n key prefixes of documents shown on a {@link DocumentPage}. */
export type DocumentPageKeys = "templates" | "organizations";

/**
 * The page of the named document with the route's `id`: a link back to the list, then its
 * details once loaded (made anew for another id); until then a heading with the loading status
 * or the error.
 */
export function DocumentPage<Data extends { readonly name: string }>({
  keys,
  listRoute,
  query,
  children,
}: {
  /** Prefix of the page's texts: `page.title` and `page.back`. */
  readonly keys: DocumentPageKeys;
  readonly listRoute: RouteName;
  /** The query of the document with the given id. */
  readonly query: (id: string) => UseQueryOptions<Data, Error, Data, string[]>;
  readonly children: (data: Data) => ReactNode;
}) {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const result = useQuery(query(id));
  useDocumentTitle(result.data ? result.data.name : t(`${keys}.page.title`));

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <BackLink to={pathFor(listRoute)}>{t(`${keys}.page.back`)}</BackLink>
      {result.data !== undefined ? (
        <Fragment key={id}>{children(result.data)}</Fragment>
      ) : (
        <>
          <h1 className="text-3xl font-bold tracking-tight">{t(`${keys}.page.title`)}</h1>
          {result.isError ? <QueryError error={result.error} /> : <p role="status">{t("app.loading")}</p>}
        </>
      )}
    </div>
  );
}

/** The heading of a loaded document, its name labelled for its admins, then its description and `fields`. */
export function DocumentSummary({
  document,
  fields,
}: {
  readonly document: { readonly name: string; readonly description: string; readonly canUpdate: boolean };
  readonly fields: [string, ReactNode][];
}) {
  const { t } = useTranslation();
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">
        <span className="break-words">{document.name}</span>
        <Labels labels={document.canUpdate ? [t("common.labels.admin")] : []} />
      </h1>
      <DetailList fields={[[t("common.description"), document.description], ...fields]} />
    </>
  );
}
