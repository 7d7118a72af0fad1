import { useTranslation } from "../../i18n/index.ts";
import { Button } from "../../components/Button.tsx";
import { useSignIn } from "../../components/SignInButton.tsx";

/**
 * The server asked for a fresh sign-in (403 `freshSignInRequired`): the person signs in again and
 * comes back to this page, where the change then goes through.
 */
export function FreshSignInNotice({ message }: { readonly message: string }) {
  const { t } = useTranslation();
  const { starting, signIn } = useSignIn();
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 sm:flex-row sm:items-center sm:justify-between dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <p>{message}</p>
      <Button className="shrink-0" busy={starting} onClick={() => signIn({ again: true })}>
        {t("account.freshSignIn.signInAgain")}
      </Button>
    </div>
  );
}
