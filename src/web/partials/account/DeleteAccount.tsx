import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { accountDeletionSchema, type AccountDeletion } from "../../../common/api/account-deletion.ts";
import { apiPath } from "../../../common/routes.ts";
import { ApiError, errorMessage, getJson, postJson } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { TextField } from "../../components/Field.tsx";
import { useSignIn } from "../../components/SignInButton.tsx";
import { toTheMinute, useFormatTimestamp } from "../../format.ts";
import { useTranslation } from "../../i18n/index.ts";
import { activityKey } from "../activity/activityApi.ts";

export const accountDeletionQuery = queryOptions({
  queryKey: ["account", "deletion"],
  queryFn: ({ signal }) => getJson(apiPath("AccountDeletion"), accountDeletionSchema, signal),
});

/**
 * The account page's danger zone: deleting the account after a grace period, confirmed by typing the
 * account's name, and keeping it while the deletion is pending.
 */
export function DeleteAccount() {
  const { t } = useTranslation();
  const deletion = useQuery(accountDeletionQuery);
  const queryClient = useQueryClient();
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [mistyped, setMistyped] = useState(false);
  const { starting, signIn } = useSignIn();
  const formatTimestamp = useFormatTimestamp(toTheMinute);
  const field = useRef<HTMLInputElement>(null);

  if (deletion.data === undefined) return null;
  const { confirmWith, graceDays, dueAt } = deletion.data;

  async function act(call: () => Promise<AccountDeletion>): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      queryClient.setQueryData(accountDeletionQuery.queryKey, await call());
      void queryClient.invalidateQueries({ queryKey: activityKey });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError("unexpected", 0));
    } finally {
      setBusy(false);
    }
  }

  function confirm(): void {
    if (typed.trim().toLowerCase() !== confirmWith.toLowerCase()) {
      setMistyped(true);
      field.current?.focus();
      return;
    }
    setDialogOpen(false);
    void act(() => postJson(apiPath("AccountDelete"), { confirmation: typed.trim() }, accountDeletionSchema));
  }

  const freshSignIn = error?.code === "freshSignInRequired";
  return (
    <div className="flex flex-col gap-4">
      {freshSignIn ? (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-100"
        >
          <p>{t("account.deletion.signInAgain")}</p>
          <Button variant="secondary" busy={starting} onClick={() => signIn({ again: true })}>
            {t("account.deletion.signInAgainButton")}
          </Button>
        </div>
      ) : (
        error && <Alert message={errorMessage(t, error.code)} />
      )}
      {dueAt === undefined ? (
        <div className="flex flex-col gap-4 rounded-lg border border-red-300 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-red-800">
          <div className="flex flex-col gap-1">
            <h3 className="font-semibold">{t("account.deletion.heading")}</h3>
            <p className="text-slate-700 dark:text-slate-300">
              {t("account.deletion.description", { count: graceDays })}
            </p>
          </div>
          <Button
            variant="danger"
            className="shrink-0"
            busy={busy}
            onClick={() => {
              setTyped("");
              setMistyped(false);
              setDialogOpen(true);
            }}
          >
            {t("account.deletion.delete")}
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-4 rounded-lg border border-amber-300 bg-amber-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-amber-700 dark:bg-amber-950/50">
          <div className="flex flex-col gap-1">
            <h3 className="font-semibold">
              {t("account.deletion.pending", { date: formatTimestamp(dueAt) })}
            </h3>
            <p className="text-slate-800 dark:text-slate-200">{t("account.deletion.pendingDescription")}</p>
          </div>
          <Button
            className="shrink-0"
            busy={busy}
            onClick={() =>
              void act(() => postJson(apiPath("AccountDeleteCancel"), {}, accountDeletionSchema))
            }
          >
            {t("account.deletion.keep")}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={dialogOpen}
        title={t("account.deletion.dialogTitle")}
        confirmLabel={t("account.deletion.confirm")}
        destructive
        onConfirm={confirm}
        onCancel={() => setDialogOpen(false)}
      >
        <div className="flex flex-col gap-4">
          <p>{t("account.deletion.dialogText", { count: graceDays })}</p>
          <TextField
            ref={field}
            label={t("account.deletion.typeToConfirm", { name: confirmWith })}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            error={mistyped ? t("account.deletion.mistyped", { name: confirmWith }) : null}
            onChange={(event) => {
              setTyped(event.target.value);
              setMistyped(false);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                confirm();
              }
            }}
          />
        </div>
      </ConfirmDialog>
    </div>
  );
}
