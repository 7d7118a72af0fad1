import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { contextQuery } from "../api.ts";
import { signInErrorCode, startSignIn } from "../auth.ts";
import { setSignInError, signOutLocally, useSignedIn } from "../session.ts";
import { HomeIcon } from "./icons.tsx";
import { LanguageSwitch } from "./LanguageSwitch.tsx";

const buttonClass = "rounded-md px-4 py-2 text-sm font-medium";

export function NavBar() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  const location = useLocation();

  async function signIn(): Promise<void> {
    setSignInError(null);
    try {
      const context = await queryClient.query(contextQuery);
      await startSignIn(context, location.pathname + location.search + location.hash);
    } catch (error) {
      setSignInError(signInErrorCode(error));
    }
  }

  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label={t("nav.label")}
        className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6"
      >
        <Link
          to={pathFor("Home")}
          className="inline-flex items-center gap-2 rounded-md py-1 font-semibold text-slate-900 hover:text-blue-800"
        >
          <HomeIcon />
          {t("nav.home")}
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <LanguageSwitch />
          {signedIn ? (
            <button
              type="button"
              onClick={signOutLocally}
              className={`${buttonClass} border border-slate-400 bg-white text-slate-900 hover:bg-slate-100`}
            >
              {t("nav.signOut")}
            </button>
          ) : (
            <button
              type="button"
              onClick={() => void signIn()}
              className={`${buttonClass} bg-blue-700 text-white hover:bg-blue-800`}
            >
              {t("nav.signIn")}
            </button>
          )}
        </div>
      </nav>
    </header>
  );
}
