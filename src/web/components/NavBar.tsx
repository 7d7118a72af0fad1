import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import type { z } from "zod";
import { signOutResponseSchema, type signOutBodySchema } from "../../common/api/flow.ts";
import { apiPath, pathFor } from "../../common/routes.ts";
import { ApiError, contextQuery, postJson } from "../api.ts";
import { forgetSilentSignIn } from "../auth.ts";
import { setSignInError, signOutLocally, useSignedIn, useSigningIn } from "../session.ts";
import { Button } from "./Button.tsx";
import { HomeIcon } from "./icons.tsx";
import { LanguageSwitch } from "./LanguageSwitch.tsx";
import { SignInButton } from "./SignInButton.tsx";

export function NavBar() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const signingIn = useSigningIn();
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const signInButton = useRef<HTMLButtonElement>(null);

  /**
   * Signs out on the server (the token is revoked and the single sign-on session ends, so a reload does
   * not sign in again), then forgets the token and everything loaded with it.
   */
  async function signOut(): Promise<void> {
    if (busy) return;
    setBusy(true);
    setSignInError(null);
    try {
      const body: z.infer<typeof signOutBodySchema> = { location: location.pathname + location.search };
      const answer = await postJson(apiPath("AuthSignout"), body, signOutResponseSchema);
      forgetSilentSignIn();
      // The Sign-out button is gone once it worked: focus moves to the button that took its place.
      flushSync(signOutLocally);
      signInButton.current?.focus();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== contextQuery.queryKey[0] });
      await navigate(answer.location);
    } catch (error) {
      setSignInError(error instanceof ApiError ? error.code : "unexpected");
    } finally {
      setBusy(false);
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
          {/* While start-up signs in, neither button is true yet. */}
          {signingIn ? null : signedIn ? (
            <Button variant="secondary" onClick={() => void signOut()}>
              {t("nav.signOut")}
            </Button>
          ) : (
            <SignInButton ref={signInButton} />
          )}
        </div>
      </nav>
    </header>
  );
}
