import { useEffect, useRef } from "react";
import { useTranslation } from "../i18n/index.ts";
import { pathFor } from "../../common/routes.ts";
import { buttonClassName } from "../components/Button.tsx";
import { MessagePanel } from "../components/MessagePanel.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { followRequestedLocale } from "../i18n/index.ts";
import { loadedLogoutPage } from "../logoutPage.ts";
import { NotFound } from "./NotFound.tsx";

const page = loadedLogoutPage();

/**
 * An app asks to end the person's single sign-on session (RP-initiated logout). The answer goes to
 * the engine as a form, with the one-time token it gave this page; "stay signed in" ends only that
 * app's part of the session.
 */
export function SignOutConfirm() {
  const { t } = useTranslation();
  const locale = page?.locale;
  useEffect(() => {
    if (locale) followRequestedLocale(locale);
  }, [locale]);
  const title = t("logout.confirm.title");
  useDocumentTitle(title);
  const form = useRef<HTMLFormElement>(null);
  const signOut = useRef<HTMLButtonElement>(null);
  const atOnce = page?.page === "confirm" && page.atOnce === true;
  // Nobody else to ask about: the page signs out as soon as it is shown; its buttons stay for a
  // browser that does not submit it.
  useEffect(() => {
    if (atOnce) form.current?.requestSubmit(signOut.current);
  }, [atOnce]);
  // Reached other than from an app's logout request, there is nothing to confirm.
  if (page?.page !== "confirm") return <NotFound />;
  const button = (variant: "primary" | "secondary") =>
    `${buttonClassName({ variant, size: "large" })} w-full`;
  return (
    <form ref={form} method="post" action={pathFor("OIDCEndSessionConfirm")}>
      <input type="hidden" name="xsrf" value={page.xsrf} />
      <MessagePanel
        tone="leaving"
        level={1}
        heading={title}
        actions={
          <>
            <button ref={signOut} type="submit" name="logout" value="yes" className={button("primary")}>
              {t("logout.confirm.signOut")}
            </button>
            <button type="submit" className={button("secondary")}>
              {t("logout.confirm.stay")}
            </button>
          </>
        }
      >
        {page.app && <p className="font-medium">{t("logout.confirm.fromApp", { name: page.app.name })}</p>}
        <p role="status">{atOnce ? t("logout.confirm.signingOut") : t("logout.confirm.message")}</p>
      </MessagePanel>
    </form>
  );
}
