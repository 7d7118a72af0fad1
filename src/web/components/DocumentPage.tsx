import { useQuery, type UseQueryOptions } from "@tanstack/react-query";
import { Fragment, type ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import { pathFor, type RouteName } from "../../common/routes.ts";
import { useDocumentTitle } from "../documentTitle.ts";
import { AdminNotice } from "./AdminNotice.tsx";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { DetailList } from "./DetailList.tsx";
import { Labels } from "./Labels.tsx";
import { QueryError } from "./QueryError.tsx";
import { TextSkeleton } from "./Skeleton.tsx";

/** The i18n key prefixes of documents shown on a {@link DocumentPage}. */
export type DocumentPageKeys = "templates" | "organizations";

/** What a document page reads of every document, besides what its own view shows. */
interface ShownDocument {
  readonly id: string;
  readonly name: string;
  /** The viewer administers it. */
  readonly canUpdate?: boolean;
  /** The viewer's own identities that administer it, when the viewer's current one does not. */
  readonly ownAdminIdentities?: readonly string[] | undefined;
}

/**
 * The page of the named document with the route's `id`: breadcrumbs up to the list, a notice when the
 * signed-in identity cannot change it, then its details once loaded (made anew for another id); until
 * then a heading with a skeleton or the error.
 */
export function DocumentPage<Data extends ShownDocument>({
  keys,
  listRoute,
  query,
  shownName = (document) => document.name,
  children,
}: {
  /** Prefix of the page's texts: `title` (of the list) and `page.title`. */
  readonly keys: DocumentPageKeys;
  readonly listRoute: RouteName;
  /** The query of the document with the given id. */
  readonly query: (id: string) => UseQueryOptions<Data, Error, Data, string[]>;
  /** The document's name as the reader sees it (a built-in one's translated). */
  readonly shownName?: (document: Data) => string;
  /** The loaded document's details, given with its shown name. */
  readonly children: (data: Data, name: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const result = useQuery(query(id));
  const name = result.data && shownName(result.data);
  useDocumentTitle(name ?? t(`${keys}.page.title`));

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <Breadcrumbs
        trail={[{ label: t(`${keys}.title`), to: pathFor(listRoute) }]}
        current={name ?? t(`${keys}.page.title`)}
      />
      {result.data !== undefined ? (
        <Fragment key={id}>
          <AdminNotice
            canUpdate={result.data.canUpdate ?? false}
            ownAdminIdentities={result.data.ownAdminIdentities}
          />
          {children(result.data, name ?? result.data.name)}
        </Fragment>
      ) : (
        <>
          <h1 className="text-3xl font-bold tracking-tight">{t(`${keys}.page.title`)}</h1>
          {result.isError ? <QueryError error={result.error} /> : <TextSkeleton lines={4} />}
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
