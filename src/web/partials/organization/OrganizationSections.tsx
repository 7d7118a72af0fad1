import { useTranslation } from "../../i18n/index.ts";
import { Link } from "react-router";
import { pathFor } from "../../../common/routes.ts";
import { buttonClassName } from "../../components/Button.tsx";

/** The admins' pages of an organization beside its own: its users and its activity. */
export function OrganizationSections({ organizationId }: { readonly organizationId: string }) {
  const { t } = useTranslation();
  const links = [
    { label: t("organizations.sections.users"), to: pathFor("OrganizationUsers", { id: organizationId }) },
    {
      label: t("organizations.sections.activity"),
      to: pathFor("OrganizationActivity", { id: organizationId }),
    },
  ];
  return (
    <nav aria-label={t("organizations.sections.label")}>
      <ul className="flex flex-wrap gap-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={buttonClassName({ variant: "secondary" })}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
