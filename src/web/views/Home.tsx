import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { pathFor, type RouteName } from "../../common/routes.ts";
import { useSiteContext } from "../api.ts";
import { useDocumentTitle } from "../documentTitle.ts";
import { useSignedIn } from "../session.ts";

interface Section {
  readonly route: RouteName;
  readonly title: string;
  readonly description: string;
}

export function Home() {
  const { t } = useTranslation();
  const context = useSiteContext();
  const signedIn = useSignedIn();
  useDocumentTitle(context.title);

  const sections: Section[] = [
    {
      route: "ApplicationTemplateList",
      title: t("home.applicationTemplates"),
      description: t("home.applicationTemplatesDescription"),
    },
    {
      route: "OrganizationList",
      title: t("home.organizations"),
      description: t("home.organizationsDescription"),
    },
  ];
  if (signedIn) {
    sections.push(
      { route: "IdentityList", title: t("home.identities"), description: t("home.identitiesDescription") },
      { route: "ActivityList", title: t("home.activity"), description: t("home.activityDescription") },
    );
  }

  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{context.title}</h1>
      <p className="mt-4 max-w-prose text-lg text-slate-700">{t("home.introduction")}</p>
      {!signedIn && <p className="mt-3 max-w-prose text-slate-700">{t("home.signInHint")}</p>}

      <h2 className="mt-10 text-xl font-semibold">{t("home.sectionsHeading")}</h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2">
        {sections.map(({ route, title, description }) => (
          <li
            key={route}
            className="relative rounded-lg border border-slate-200 p-5 hover:border-blue-700 hover:bg-blue-50"
          >
            {/* The link covers the whole card, but its name is only the title. */}
            <Link
              to={pathFor(route)}
              className="font-semibold text-blue-800 underline underline-offset-4 after:absolute after:inset-0 after:rounded-lg"
            >
              {title}
            </Link>
            <p className="mt-1 text-slate-700">{description}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
