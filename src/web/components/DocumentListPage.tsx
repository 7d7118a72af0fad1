import { useQuery, type UseQueryOptions } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { useTranslation } from "../i18n/index.ts";
import type { DocumentSummary } from "../../common/api/summary.ts";
import { pathFor, type RouteName } from "../../common/routes.ts";
import { useDocumentTitle } from "../documentTitle.ts";
import { useSignedIn } from "../session.ts";
import { EmptyState } from "./EmptyState.tsx";
import { OrganizationIcon, TemplateIcon } from "./icons.tsx";
import { CreateLink, PageHeader } from "./PageHeader.tsx";
import { QueryError } from "./QueryError.tsx";
import { SignInButton } from "./SignInButton.tsx";
import { ListSkeleton } from "./Skeleton.tsx";
import { SummaryList } from "./SummaryList.tsx";

/** The i18n key prefixes of documents listed by {@link DocumentListPage}. */
export type DocumentListKeys = "templates" | "organizations";

const icons: Record<DocumentListKeys, ComponentType<{ className?: string }>> = {
  templates: TemplateIcon,
  organizations: OrganizationIcon,
};

/** All documents of one kind (spec §2): public; signed-in people can create one. */
export function DocumentListPage({
  query,
  keys,
  createRoute,
  itemRoute,
  shownName = (item) => item.name,
}: {
  readonly query: UseQueryOptions<DocumentSummary[], Error, DocumentSummary[], string[]>;
  /** Prefix of the page's texts: `title`, `create`, `empty`, `emptySignedOut` and `count`. */
  readonly keys: DocumentListKeys;
  readonly createRoute: RouteName;
  /** The page of one document, with its `id`. */
  readonly itemRoute: RouteName;
  /** An item's name as the reader sees it (a built-in one's translated). */
  readonly shownName?: (item: DocumentSummary) => string;
}) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const items = useQuery(query);
  useDocumentTitle(t(`${keys}.title`));
  const create = <CreateLink to={pathFor(createRoute)}>{t(`${keys}.create`)}</CreateLink>;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={t(`${keys}.title`)}
        description={t(`nav.descriptions.${keys}`)}
        // An empty list offers the same action in its place.
        action={signedIn && items.data?.length !== 0 && create}
      />
      {items.data !== undefined ? (
        items.data.length === 0 ? (
          <EmptyState
            icon={icons[keys]}
            message={signedIn ? t(`${keys}.empty`) : t(`${keys}.emptySignedOut`)}
            action={signedIn ? create : <SignInButton />}
          />
        ) : (
          <div>
            <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
              {t(`${keys}.count`, { count: items.data.length })}
            </p>
            <SummaryList
              items={items.data.map((item) => ({ ...item, name: shownName(item) }))}
              link={(id) => pathFor(itemRoute, { id })}
              labels={(item) => (item.canUpdate ? [t("common.labels.admin")] : [])}
            />
          </div>
        )
      ) : items.isError ? (
        <QueryError error={items.error} />
      ) : (
        <ListSkeleton />
      )}
    </div>
  );
}
