import { useState } from "react";
import type { PublicApplication } from "../../../common/api/organization.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { errorMessage } from "../../api.ts";
import { signInErrorCode } from "../../auth.ts";
import { useTranslation } from "../../i18n/index.ts";
import { startTrySignIn, type TryApp } from "../../trySignIn.ts";

/**
 * "Try signing in" for the app's admins: Vrata runs the app's sign-in as its test client and shows
 * what the app would get. An app that signs nobody in is told so; one that cannot sign in yet, why.
 */
export function TrySignInPanel({
  organizationId,
  application,
}: {
  readonly organizationId: string;
  readonly application: PublicApplication;
}) {
  const { t } = useTranslation();
  const signsPeopleIn = (application.clients ?? []).some((client) => client.kind !== "service");
  const { trySignIn } = application;
  return (
    <div className="flex flex-col gap-3 rounded-md border border-blue-200 bg-blue-50 p-4 dark:border-blue-900 dark:bg-blue-950">
      <h3 className="font-semibold">{t("organizations.app.try.title")}</h3>
      {!signsPeopleIn ? (
        <p className="text-sm">{t("organizations.app.try.serviceOnly")}</p>
      ) : trySignIn === undefined ? (
        <p className="text-sm">{t("organizations.app.try.unavailable")}</p>
      ) : (
        <>
          <p className="text-sm">{t("organizations.app.try.hint")}</p>
          <TryButton
            app={{ organizationId, applicationId: application.id, ...trySignIn }}
            label={t("organizations.app.try.start")}
          />
        </>
      )}
    </div>
  );
}

/** Starts the app's sign-in as its test client; a failure to start is said beside it. */
export function TryButton({
  app,
  label,
  anotherIdentity = false,
  variant = "primary",
}: {
  readonly app: TryApp;
  readonly label: string;
  readonly anotherIdentity?: boolean;
  readonly variant?: "primary" | "secondary";
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await startTrySignIn(app, { anotherIdentity });
    } catch (failure) {
      setError(signInErrorCode(failure));
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col items-start gap-2">
      <Button variant={variant} busy={busy} onClick={() => void start()}>
        {label}
      </Button>
      {error !== null && <Alert message={errorMessage(t, error)} />}
    </div>
  );
}
