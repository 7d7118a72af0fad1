import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type SyntheticEvent } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Credential } from "../../../common/api/account.ts";
import { passwordMinLength } from "../../../common/limits.ts";
import { characterCount } from "../../../common/text.ts";
import { ApiError } from "../../api.ts";
import { Button } from "../../components/Button.tsx";
import { TextField } from "../../components/Field.tsx";
import { FormActions } from "../../components/FormActions.tsx";
import { useAction } from "../../components/useAction.tsx";
import { useRelativeTime } from "../activity/relativeTime.ts";
import { MethodFeedback } from "./MethodFeedback.tsx";
import { removePassword, setPassword, showAccount } from "./accountApi.ts";
import { FreshSignInNotice } from "./FreshSignInNotice.tsx";

type Editing = "set" | "remove" | null;

/**
 * The account's password: set (after a fresh sign-in), changed or removed. A change or a removal asks
 * for the current password; left empty, a fresh sign-in stands in for it.
 */
export function PasswordSection({ credentials }: { readonly credentials: readonly Credential[] }) {
  const { t } = useTranslation();
  const relativeTime = useRelativeTime();
  const queryClient = useQueryClient();
  const action = useAction();
  const [editing, setEditing] = useState<Editing>(null);
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [nextError, setNextError] = useState<string | null>(null);
  const [needsSignIn, setNeedsSignIn] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const password = credentials.find(({ provider }) => provider === "password");
  const username = credentials.find(({ provider }) => provider === "username")?.name;

  function close(): void {
    setEditing(null);
    setCurrent("");
    setNext("");
    setNextError(null);
    setNeedsSignIn(false);
    setTimeout(() => opener.current?.focus(), 0);
  }

  function open(kind: Exclude<Editing, null>): void {
    action.clear();
    setNeedsSignIn(false);
    setEditing(kind);
  }

  async function submit(event: SyntheticEvent): Promise<void> {
    event.preventDefault();
    if (editing === "set" && characterCount(next) < passwordMinLength) {
      setNextError(t("errors.passwordTooShort"));
      return;
    }
    setNextError(null);
    setNeedsSignIn(false);
    const done =
      editing === "remove"
        ? t("account.password.removed")
        : password
          ? t("account.password.changed")
          : t("account.password.set");
    await action.run(async () => {
      try {
        const account =
          editing === "remove"
            ? await removePassword(current || undefined)
            : await setPassword(next, current || undefined);
        showAccount(queryClient, account);
        close();
      } catch (caught) {
        // Offered as a way on, rather than shown as an error.
        if (caught instanceof ApiError && caught.code === "freshSignInRequired") setNeedsSignIn(true);
        throw caught;
      }
    }, done);
  }

  const status = password
    ? t("account.password.has", { time: relativeTime(password.updatedAt ?? password.createdAt) })
    : t("account.password.none");

  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-700 dark:text-slate-300">
        {username ? t("account.password.hintUsername", { username }) : t("account.password.hint")}
      </p>
      <div className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        {editing === null ? (
          <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
            <div className="min-w-0 flex-1 basis-64">
              <p className="font-semibold">
                {password ? t("account.password.isSet") : t("account.password.notSet")}
              </p>
              <p className="text-sm text-slate-700 dark:text-slate-300">{status}</p>
              {password && !password.removable && (
                <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
                  {t("account.password.lastWay")}
                </p>
              )}
            </div>
            <div className="flex flex-wrap gap-2">
              <Button ref={opener} variant="secondary" onClick={() => open("set")}>
                {password ? t("account.password.change") : t("account.password.setUp")}
              </Button>
              {password && (
                <Button variant="secondary" disabled={!password.removable} onClick={() => open("remove")}>
                  {t("account.password.remove")}
                </Button>
              )}
            </div>
          </div>
        ) : (
          <form
            noValidate
            aria-label={
              editing === "remove"
                ? t("account.password.removeTitle")
                : password
                  ? t("account.password.changeTitle")
                  : t("account.password.setTitle")
            }
            className="flex max-w-md flex-col gap-4 py-1"
            onSubmit={(event) => void submit(event)}
          >
            <p className="font-semibold">
              {editing === "remove"
                ? t("account.password.removeTitle")
                : password
                  ? t("account.password.changeTitle")
                  : t("account.password.setTitle")}
            </p>
            {/* Password managers fill the right fields when the form names the account. */}
            {username && <input type="text" hidden readOnly autoComplete="username" value={username} />}
            {password && (
              <TextField
                label={t("account.password.current")}
                hint={t("account.password.currentHint")}
                name="current-password"
                type="password"
                autoComplete="current-password"
                value={current}
                onChange={(event) => {
                  setCurrent(event.target.value);
                  action.clear();
                }}
              />
            )}
            {editing === "set" && (
              <TextField
                label={t("account.password.new")}
                hint={t("account.password.newHint")}
                name="new-password"
                type="password"
                autoComplete="new-password"
                value={next}
                error={nextError}
                onChange={(event) => {
                  setNext(event.target.value);
                  action.clear();
                }}
              />
            )}
            {editing === "remove" && (
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {t("account.password.removeMessage")}
              </p>
            )}
            {needsSignIn ? (
              <FreshSignInNotice
                message={password ? t("account.password.signInInstead") : t("account.password.signInFirst")}
              />
            ) : (
              <MethodFeedback action={action} />
            )}
            <FormActions
              submitLabel={
                editing === "remove"
                  ? t("account.password.removeConfirm")
                  : password
                    ? t("account.password.changeConfirm")
                    : t("account.password.setConfirm")
              }
              busy={action.busy}
              onCancel={close}
            />
          </form>
        )}
      </div>
      {editing === null && <MethodFeedback action={action} />}
    </div>
  );
}
