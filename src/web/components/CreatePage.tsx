import { useId, type ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import { pathFor, type RouteName } from "../../common/routes.ts";
import { useDocumentTitle } from "../documentTitle.ts";
import { useSignedIn } from "../session.ts";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { SignInPrompt } from "./SignInPrompt.tsx";

/** The i18n key prefixes of documents created on a {@link CreatePage}. */
export type CreatePageKeys = "templates" | "organizations" | "identities";

/**
 * A page creating one document: breadcrumbs up to the list, the heading and, for signed-in people,
 * the form (labelled by the heading); others are asked to sign in.
 */
export function CreatePage({
  keys,
  listRoute,
  form,
}: {
  /** Prefix of the page's texts: `title` (of the list), `createPage.title` and `createPage.signedOut`. */
  readonly keys: CreatePageKeys;
  readonly listRoute: RouteName;
  /** The form, labelled by the heading with the given id. */
  readonly form: (headingId: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const signedIn = useSignedIn();
  useDocumentTitle(t(`${keys}.createPage.title`));

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <Breadcrumbs
        trail={[{ label: t(`${keys}.title`), to: pathFor(listRoute) }]}
        current={t(`${keys}.createPage.title`)}
      />
      <h1 id={headingId} className="text-3xl font-bold tracking-tight">
        {t(`${keys}.createPage.title`)}
      </h1>
      {signedIn ? form(headingId) : <SignInPrompt message={t(`${keys}.createPage.signedOut`)} />}
    </div>
  );
}
