import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type SyntheticEvent } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Account, Credential } from "../../../common/api/account.ts";
import { codeLength } from "../../../common/limits.ts";
import { errorMessage } from "../../api.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { TextField } from "../../components/Field.tsx";
import { PlusIcon } from "../../components/icons.tsx";
import { Labels } from "../../components/Labels.tsx";
import { useAction } from "../../components/useAction.tsx";
import { useRelativeTime } from "../activity/relativeTime.ts";
import { MethodFeedback } from "./MethodFeedback.tsx";
import {
  addEmail,
  cancelEmail,
  makeEmailPrimary,
  removeCredential,
  showAccount,
  verifyEmail,
} from "./accountApi.ts";

type Pending = NonNullable<Account["pendingEmails"]>[number];

/** The actions about an address waiting for its code, whose errors show on its card. */
const pendingActions = ["verify", "resend", "cancel"];
const pendingKey = (kind: string, id: string) => `${kind}:${id}`;
const isPendingKey = (key: string | null) => pendingActions.some((kind) => key?.startsWith(`${kind}:`));

/**
 * The account's e-mail addresses: each signs in with a code sent to it, and the primary one gets the
 * e-mails about the account. A new one is added by the code e-mailed to it.
 */
export function EmailAddresses({ account }: { readonly account: Account }) {
  const { t, language } = useTranslation();
  const relativeTime = useRelativeTime();
  const queryClient = useQueryClient();
  const action = useAction();
  const [address, setAddress] = useState("");
  const [confirming, setConfirming] = useState<Credential | null>(null);
  const addInput = useRef<HTMLInputElement>(null);
  const lastWayId = useId();
  const emails = account.credentials.filter(({ provider }) => provider === "email");
  const pending = account.pendingEmails ?? [];

  const act = (call: () => Promise<Account>, done: string, key: string) =>
    action.run(async () => showAccount(queryClient, await call()), done, key);

  async function add(event: SyntheticEvent): Promise<void> {
    event.preventDefault();
    const email = address.trim();
    await act(() => addEmail(email, language), t("account.emails.sent", { email }), "add");
    setAddress((typed) => (typed.trim() === email ? "" : typed));
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-700 dark:text-slate-300">{t("account.emails.hint")}</p>
      {emails.length === 0 && pending.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">{t("account.emails.none")}</p>
      ) : (
        <CardList>
          {emails.map((email) => (
            <CardItem
              key={email.id}
              actions={
                <>
                  {!email.primary && (
                    <Button
                      variant="secondary"
                      {...action.button(`primary:${email.id}`)}
                      aria-label={t("account.emails.makePrimaryOf", { email: email.name })}
                      onClick={() =>
                        void act(
                          () => makeEmailPrimary(email.id),
                          t("account.emails.madePrimary", { email: email.name }),
                          `primary:${email.id}`,
                        )
                      }
                    >
                      {t("account.emails.makePrimary")}
                    </Button>
                  )}
                  <Button
                    variant="secondary"
                    {...action.button(`remove:${email.id}`)}
                    disabled={action.button(`remove:${email.id}`).disabled || !email.removable}
                    aria-label={t("account.emails.removeOf", { email: email.name })}
                    aria-describedby={email.removable ? undefined : `${lastWayId}-${email.id}`}
                    onClick={() => setConfirming(email)}
                  >
                    {t("account.emails.remove")}
                  </Button>
                </>
              }
            >
              <p className="font-semibold break-words">
                {email.name}
                {email.primary && <Labels labels={[t("account.emails.primary")]} />}
              </p>
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {t("account.emails.added", { time: relativeTime(email.createdAt) })}
              </p>
              {!email.removable && (
                <p
                  id={`${lastWayId}-${email.id}`}
                  className="mt-1 text-sm text-slate-700 dark:text-slate-300"
                >
                  {t("account.emails.lastWay")}
                </p>
              )}
            </CardItem>
          ))}
          {pending.map((verification) => (
            <PendingEmail key={verification.id} verification={verification} action={action} act={act} />
          ))}
        </CardList>
      )}
      <form
        noValidate
        aria-label={t("account.emails.addTitle")}
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(event) => void add(event)}
      >
        <div className="min-w-0 flex-1">
          <TextField
            ref={addInput}
            label={t("account.emails.newAddress")}
            name="email"
            type="email"
            autoComplete="email"
            value={address}
            onChange={(event) => {
              setAddress(event.target.value);
              action.clear();
            }}
          />
        </div>
        <Button type="submit" className="shrink-0 sm:mb-px" {...action.button("add")}>
          <PlusIcon />
          {t("account.emails.add")}
        </Button>
      </form>
      <MethodFeedback action={action} errorsOf={(key) => !isPendingKey(key)} />
      <ConfirmDialog
        open={confirming !== null}
        title={t("account.emails.confirmTitle", { email: confirming?.name ?? "" })}
        confirmLabel={t("account.emails.confirm")}
        destructive
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const email = confirming;
          setConfirming(null);
          if (email)
            void act(
              () => removeCredential(email.id),
              t("account.emails.removed", { email: email.name }),
              `remove:${email.id}`,
            ).then(() => addInput.current?.focus());
        }}
      >
        <p>{t("account.emails.confirmMessage")}</p>
      </ConfirmDialog>
    </div>
  );
}

/** An address waiting for its code: typed here, sent again, or given up. */
function PendingEmail({
  verification,
  action,
  act,
}: {
  readonly verification: Pending;
  readonly action: ReturnType<typeof useAction>;
  readonly act: (call: () => Promise<Account>, done: string, key: string) => Promise<void>;
}) {
  const { t, language } = useTranslation();
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const { id, email } = verification;
  const ownError =
    action.error && pendingActions.some((kind) => action.doneKey === pendingKey(kind, id))
      ? action.error
      : null;

  async function verify(event: SyntheticEvent): Promise<void> {
    event.preventDefault();
    const typed = code.replace(/\s/g, "");
    if (!new RegExp(`^\\d{${codeLength}}$`).test(typed)) {
      setCodeError(t("account.emails.codeFormat"));
      return;
    }
    setCodeError(null);
    await act(
      () => verifyEmail(id, typed),
      t("account.emails.verified", { email }),
      pendingKey("verify", id),
    );
  }

  return (
    <li className="flex flex-col gap-3 rounded-lg border border-dashed border-blue-300 bg-blue-50/60 px-4 py-3 dark:border-blue-800 dark:bg-blue-950/40">
      <div>
        <p className="font-semibold break-words">
          {email}
          <Labels labels={[t("account.emails.waiting")]} />
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t("account.emails.enterCode", { email })}
        </p>
      </div>
      <form
        noValidate
        aria-label={t("account.emails.verifyOf", { email })}
        className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end"
        onSubmit={(event) => void verify(event)}
      >
        <div className="w-full sm:w-44">
          <TextField
            label={t("account.emails.code")}
            name="code"
            value={code}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={codeLength + 2}
            className="font-mono tracking-widest"
            error={codeError ?? (ownError && errorMessage(t, ownError.code, ownError.values))}
            onChange={(event) => {
              setCode(event.target.value);
              action.clear();
            }}
          />
        </div>
        <div className="flex flex-wrap gap-2 sm:mb-px">
          <Button type="submit" {...action.button(pendingKey("verify", id))}>
            {t("account.emails.verify")}
          </Button>
          <Button
            variant="secondary"
            {...action.button(pendingKey("resend", id))}
            onClick={() =>
              void act(
                () => addEmail(email, language),
                t("account.emails.sent", { email }),
                pendingKey("resend", id),
              )
            }
          >
            {t("account.emails.resend")}
          </Button>
          <Button
            variant="secondary"
            {...action.button(pendingKey("cancel", id))}
            aria-label={t("account.emails.cancelOf", { email })}
            onClick={() =>
              void act(
                () => cancelEmail(id),
                t("account.emails.cancelled", { email }),
                pendingKey("cancel", id),
              )
            }
          >
            {t("common.cancel")}
          </Button>
        </div>
      </form>
    </li>
  );
}
