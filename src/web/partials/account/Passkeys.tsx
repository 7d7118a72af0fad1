import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Credential } from "../../../common/api/account.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { CardList } from "../../components/Cards.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { PlusIcon } from "../../components/icons.tsx";
import { addPasskey, removeCredential, renameCredential, showAccount } from "./accountApi.ts";
import { PasskeyCard } from "./PasskeyCard.tsx";

type Outcome = { message: string } | { error: string } | null;

/** The account's passkeys: listed, and added, renamed and removed one at a time. */
export function Passkeys({ passkeys }: { readonly passkeys: readonly Credential[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Credential | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const supported = browserSupportsWebAuthn();
  const failed = (caught: unknown) => ({
    error: errorMessage(t, caught instanceof ApiError ? caught.code : "unexpected"),
  });

  async function add(): Promise<void> {
    if (adding) return;
    setAdding(true);
    setOutcome(null);
    try {
      const before = new Set(passkeys.map(({ id }) => id));
      const result = await addPasskey(t("account.passkeys.defaultName"));
      if (result === "cancelled") {
        setOutcome({ message: t("account.passkeys.cancelled") });
      } else {
        showAccount(queryClient, result);
        const added = result.credentials.find(
          ({ id, provider }) => provider === "passkey" && !before.has(id),
        );
        setOutcome({ message: t("account.passkeys.added", { name: added?.name ?? "" }) });
      }
    } catch (caught) {
      setOutcome(failed(caught));
    } finally {
      setAdding(false);
      addButton.current?.focus();
    }
  }

  async function remove(passkey: Credential): Promise<void> {
    setConfirming(null);
    setRemoving(passkey.id);
    setOutcome(null);
    try {
      showAccount(queryClient, await removeCredential(passkey.id));
      setOutcome({ message: t("account.passkeys.removed", { name: passkey.name }) });
      // The card and its button are gone: the focus goes to the section's own action.
      addButton.current?.focus();
    } catch (caught) {
      setOutcome(failed(caught));
    } finally {
      setRemoving(null);
    }
  }

  async function rename(passkey: Credential, name: string): Promise<void> {
    setOutcome(null);
    showAccount(queryClient, await renameCredential(passkey.id, name));
    setOutcome({ message: t("account.passkeys.renamed", { name }) });
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-700 dark:text-slate-300">{t("account.passkeys.secondFactor")}</p>
      {passkeys.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">{t("account.passkeys.none")}</p>
      ) : (
        <CardList>
          {passkeys.map((passkey) => (
            <PasskeyCard
              key={passkey.id}
              passkey={passkey}
              disabled={adding || (removing !== null && removing !== passkey.id)}
              removing={removing === passkey.id}
              onRename={(name) => rename(passkey, name)}
              onRemove={() => setConfirming(passkey)}
            />
          ))}
        </CardList>
      )}
      {!supported && (
        <p className="text-slate-700 dark:text-slate-300">{t("account.passkeys.unsupported")}</p>
      )}
      <div>
        <Button ref={addButton} busy={adding} disabled={!supported} onClick={() => void add()}>
          <PlusIcon />
          {t("account.passkeys.add")}
        </Button>
      </div>
      {outcome && "error" in outcome && <Alert message={outcome.error} />}
      <p role="status" className="font-medium text-slate-800 dark:text-slate-200">
        {outcome && "message" in outcome ? outcome.message : ""}
      </p>
      <ConfirmDialog
        open={confirming !== null}
        title={t("account.passkeys.confirmTitle", { name: confirming?.name ?? "" })}
        confirmLabel={t("account.passkeys.confirm")}
        destructive
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) void remove(confirming);
        }}
      >
        <p>{t("account.passkeys.confirmMessage")}</p>
      </ConfirmDialog>
    </div>
  );
}
