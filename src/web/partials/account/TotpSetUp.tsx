import { useEffect, useRef, useState } from "react";
import { useTranslation, type TFunction } from "../../i18n/index.ts";
import type { Account } from "../../../common/api/account.ts";
import type { TotpSetUp as SetUp } from "../../../common/api/second-factor.ts";
import { totpDigits } from "../../../common/limits.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { AuthenticatorKey } from "../../components/AuthenticatorKey.tsx";
import { TextField } from "../../components/Field.tsx";
import { FormActions } from "../../components/FormActions.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { completeTotpSetUp, startTotpSetUp } from "./accountApi.ts";

/** The secret as people type it: groups of four, which are easier to read and compare. */

const failure = (t: TFunction, caught: unknown) =>
  errorMessage(t, caught instanceof ApiError ? caught.code : "unexpected");

/**
 * Setting up an authenticator app: its QR code to scan (or its secret to type), then its first code
 * to prove it works. `onDone` gets the account, with recovery codes when they were made with it.
 */
export function TotpSetUp({
  onDone,
  onCancel,
}: {
  readonly onDone: (account: Account & { recoveryCodes?: string[] | undefined }) => void;
  readonly onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [setUp, setSetUp] = useState<SetUp | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let current = true;
    startTotpSetUp().then(
      (started) => current && setSetUp(started),
      (caught: unknown) => current && setStartError(failure(t, caught)),
    );
    return () => {
      current = false;
    };
  }, [t]);

  async function confirm(): Promise<void> {
    if (busy || !setUp) return;
    const typed = code.replace(/\s/g, "");
    if (!new RegExp(`^\\d{${totpDigits}}$`).test(typed)) {
      setCodeError(t("account.twoStep.setUp.codeFormat"));
      codeInput.current?.focus();
      return;
    }
    setBusy(true);
    setCodeError(null);
    try {
      onDone(await completeTotpSetUp(setUp.setUpToken, typed));
    } catch (caught) {
      setCodeError(failure(t, caught));
      setBusy(false);
      codeInput.current?.focus();
    }
  }

  if (startError)
    return (
      <div className="flex flex-col gap-3">
        <Alert message={startError} />
        <div>
          <Button variant="secondary" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
        </div>
      </div>
    );
  if (!setUp)
    return (
      <p className="flex items-center gap-2 text-slate-700 dark:text-slate-300">
        <Spinner />
        {t("account.twoStep.setUp.preparing")}
      </p>
    );

  return (
    <form
      noValidate
      aria-label={t("account.twoStep.setUp.title")}
      className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900"
      onSubmit={(event) => {
        event.preventDefault();
        void confirm();
      }}
    >
      <h3 className="text-lg font-semibold">{t("account.twoStep.setUp.title")}</h3>
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <img
          src={setUp.qrCode}
          alt={t("account.twoStep.setUp.qrAlt")}
          width={176}
          height={176}
          className="size-44 shrink-0 self-center rounded-md bg-white p-1 ring-1 ring-slate-200 sm:self-start dark:ring-slate-600"
        />
        <ol className="flex list-decimal flex-col gap-3 ps-5 text-slate-800 dark:text-slate-200">
          <li>{t("account.twoStep.setUp.scan")}</li>
          <li>
            <p>{t("account.twoStep.setUp.orType")}</p>
            <div className="mt-2">
              <AuthenticatorKey
                secret={setUp.secret}
                label={t("account.twoStep.setUp.secretLabel")}
                copyLabel={t("account.twoStep.setUp.copySecret")}
              />
            </div>
          </li>
          <li>{t("account.twoStep.setUp.enterCode")}</li>
        </ol>
      </div>
      <div className="max-w-56">
        <TextField
          ref={codeInput}
          label={t("account.twoStep.setUp.codeLabel")}
          name="code"
          value={code}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={totpDigits + 2}
          className="font-mono tracking-widest"
          error={codeError}
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      <FormActions submitLabel={t("account.twoStep.setUp.confirm")} busy={busy} onCancel={onCancel} />
    </form>
  );
}
