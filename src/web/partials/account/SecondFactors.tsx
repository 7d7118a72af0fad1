import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Account } from "../../../common/api/account.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Labels } from "../../components/Labels.tsx";
import { PlusIcon } from "../../components/icons.tsx";
import { useRelativeTime } from "../activity/relativeTime.ts";
import { regenerateRecoveryCodes, removeCredential, showAccount } from "./accountApi.ts";
import { RecoveryCodes } from "./RecoveryCodes.tsx";
import { TotpSetUp } from "./TotpSetUp.tsx";

type Outcome = { message: string } | { error: string } | null;

/**
 * Two-step verification: the authenticator app (set up, or removed with its recovery codes), and the
 * recovery codes left, made anew on demand. New codes are shown once, in place.
 */
export function SecondFactors({ account }: { readonly account: Account }) {
  const { t } = useTranslation();
  const relativeTime = useRelativeTime();
  const queryClient = useQueryClient();
  const [settingUp, setSettingUp] = useState(false);
  const [codes, setCodes] = useState<readonly string[] | null>(null);
  const [confirming, setConfirming] = useState<"remove" | "regenerate" | null>(null);
  const [busy, setBusy] = useState<"remove" | "regenerate" | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const setUpButton = useRef<HTMLButtonElement>(null);
  const totp = account.credentials.find(({ provider }) => provider === "totp");
  const hasPasskey = account.credentials.some(({ provider }) => provider === "passkey");
  const left = account.recoveryCodesLeft;

  async function act(action: "remove" | "regenerate"): Promise<void> {
    setConfirming(null);
    setBusy(action);
    setOutcome(null);
    try {
      if (action === "remove" && totp) {
        showAccount(queryClient, await removeCredential(totp.id));
        setOutcome({ message: t("account.twoStep.removed") });
        setTimeout(() => setUpButton.current?.focus(), 0);
      } else {
        setCodes(await regenerateRecoveryCodes());
        await queryClient.invalidateQueries({ queryKey: ["account"] });
      }
    } catch (caught) {
      setOutcome({ error: errorMessage(t, caught instanceof ApiError ? caught.code : "unexpected") });
    } finally {
      setBusy(null);
    }
  }

  const status = totp
    ? t("account.twoStep.statusOn")
    : hasPasskey
      ? t("account.twoStep.statusPasskeys")
      : t("account.twoStep.statusOff");

  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-700 dark:text-slate-300">{t("account.twoStep.hint")}</p>
      <p className="font-medium" data-testid="two-step-status">
        {status}
      </p>
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onSaved={() => {
            setCodes(null);
            setOutcome({ message: t("account.twoStep.codes.done") });
          }}
        />
      ) : settingUp ? (
        <TotpSetUp
          onCancel={() => {
            setSettingUp(false);
            setTimeout(() => setUpButton.current?.focus(), 0);
          }}
          onDone={({ recoveryCodes, ...updated }) => {
            showAccount(queryClient, updated);
            setSettingUp(false);
            setOutcome({ message: t("account.twoStep.added") });
            if (recoveryCodes) setCodes(recoveryCodes);
          }}
        />
      ) : (
        <CardList>
          {totp ? (
            <CardItem
              actions={
                <Button
                  variant="secondary"
                  busy={busy === "remove"}
                  disabled={busy !== null}
                  aria-label={t("account.twoStep.removeApp")}
                  onClick={() => setConfirming("remove")}
                >
                  {t("account.twoStep.remove")}
                </Button>
              }
            >
              <p className="font-semibold">
                {t("account.twoStep.app")}
                <Labels labels={[t("account.twoStep.on")]} />
              </p>
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {[
                  t("account.passkeys.created", { time: relativeTime(totp.createdAt) }),
                  totp.lastUsedAt && t("account.passkeys.lastUsed", { time: relativeTime(totp.lastUsedAt) }),
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </p>
            </CardItem>
          ) : (
            <CardItem
              actions={
                <Button ref={setUpButton} onClick={() => setSettingUp(true)}>
                  <PlusIcon />
                  {t("account.twoStep.setUpApp")}
                </Button>
              }
            >
              <p className="font-semibold">{t("account.twoStep.app")}</p>
              <p className="text-sm text-slate-700 dark:text-slate-300">{t("account.twoStep.appHint")}</p>
            </CardItem>
          )}
          {(left !== undefined || hasPasskey) && (
            <CardItem
              actions={
                <Button
                  variant="secondary"
                  busy={busy === "regenerate"}
                  disabled={busy !== null}
                  onClick={() => setConfirming("regenerate")}
                >
                  {t("account.twoStep.codes.regenerate")}
                </Button>
              }
            >
              <p className="font-semibold">{t("account.twoStep.codes.name")}</p>
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {left === undefined
                  ? t("account.twoStep.codes.none")
                  : t("account.twoStep.codes.left", { count: left })}
              </p>
            </CardItem>
          )}
        </CardList>
      )}
      {outcome && "error" in outcome && <Alert message={outcome.error} />}
      <p role="status" className="font-medium text-slate-800 dark:text-slate-200">
        {outcome && "message" in outcome ? outcome.message : ""}
      </p>
      <ConfirmDialog
        open={confirming === "remove"}
        title={t("account.twoStep.confirmRemoveTitle")}
        confirmLabel={t("account.twoStep.confirmRemove")}
        destructive
        onCancel={() => setConfirming(null)}
        onConfirm={() => void act("remove")}
      >
        <p>{t("account.twoStep.confirmRemoveMessage")}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "regenerate"}
        title={t("account.twoStep.codes.confirmTitle")}
        confirmLabel={t("account.twoStep.codes.confirm")}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void act("regenerate")}
      >
        <p>{t("account.twoStep.codes.confirmMessage")}</p>
      </ConfirmDialog>
    </div>
  );
}
