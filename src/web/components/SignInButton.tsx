import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type Ref } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useLocation } from "react-router";
import { contextQuery } from "../api.ts";
import { signInErrorCode, startSignIn } from "../auth.ts";
import { setSignInError } from "../session.ts";
import { Button } from "./Button.tsx";

/**
 * Starts the console's sign-in from this page, to which the person comes back; with `again` the person
 * signs in anew (to pick another identity, or to prove a fresh sign-in before a sensitive change).
 * `starting` is true until the browser leaves.
 */
export function useSignIn(): { starting: boolean; signIn: (options?: { again?: boolean }) => void } {
  const queryClient = useQueryClient();
  const location = useLocation();
  const [starting, setStarting] = useState(false);
  // Back from the sign-in page, the browser may show this page as it was left: busy no more.
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => {
      if (event.persisted) setStarting(false);
    };
    window.addEventListener("pageshow", reset);
    return () => window.removeEventListener("pageshow", reset);
  }, []);

  async function start(options: { again?: boolean }): Promise<void> {
    setSignInError(null);
    setStarting(true);
    try {
      const context = await queryClient.query(contextQuery);
      await startSignIn(context, location.pathname + location.search + location.hash, options);
    } catch (error) {
      setSignInError(signInErrorCode(error));
      setStarting(false);
    }
  }

  return { starting, signIn: (options = {}) => void start(options) };
}

/** "Sign-in or sign-up": starts the console's sign-in; the person comes back to this page. */
export function SignInButton({ ref }: { readonly ref?: Ref<HTMLButtonElement> }) {
  const { t } = useTranslation();
  const { starting, signIn } = useSignIn();
  return (
    <Button ref={ref} busy={starting} onClick={() => signIn()}>
      {t("nav.signIn")}
    </Button>
  );
}
