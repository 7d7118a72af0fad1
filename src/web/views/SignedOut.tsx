import { useTranslation } from "../i18n/index.ts";
import { pathFor } from "../../common/routes.ts";
import { ErrorAction } from "../components/ErrorPanel.tsx";
import { MessagePanel } from "../components/MessagePanel.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { loadedLogoutPage } from "../logoutPage.ts";

const loaded = loadedLogoutPage();

/** The session ended and the app named no page of its own to go back to. */
export function SignedOut() {
  const { t } = useTranslation();
  const title = t("logout.signedOut.title");
  useDocumentTitle(title);
  const app = loaded?.page === "signedOut" ? loaded.app : undefined;
  return (
    <MessagePanel
      tone="done"
      level={1}
      heading={title}
      actions={
        app?.homepage ? (
          <ErrorAction href={app.homepage}>{t("logout.signedOut.backToApp", { name: app.name })}</ErrorAction>
        ) : (
          <ErrorAction to={pathFor("Home")}>{t("errorPages.backHome")}</ErrorAction>
        )
      }
    >
      <p>{app ? t("logout.signedOut.fromApp", { name: app.name }) : t("logout.signedOut.message")}</p>
    </MessagePanel>
  );
}
