import { useQueryClient } from "@tanstack/react-query";
import type { Ref } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { contextQuery } from "../api.ts";
import { signInErrorCode, startSignIn } from "../auth.ts";
import { setSignInError } from "../session.ts";
import { Button } from "./Button.tsx";

/** "Sign-in or sign-up": starts the console's sign-in; the person comes back to this page. */
export function SignInButton({ ref }: { readonly ref?: Ref<HTMLButtonElement> }) {
  const { t } = useTranslation();
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
    <Button ref={ref} onClick={() => void signIn()}>
      {t("nav.signIn")}
    </Button>
  );
}
