import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { useSearchParams } from "react-router";
import {
  providerLinkStatuses,
  type Credential,
  type ProviderLinkStatus,
} from "../../../common/api/account.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { ProviderIcon } from "../../components/icons.tsx";
import { useProviders } from "../../providers.ts";
import { useRelativeTime } from "../activity/relativeTime.ts";
import { removeCredential, showAccount, startProviderLink } from "./accountApi.ts";

type Outcome = { message: string } | { error: string } | null;

const isLinkStatus = (value: string | null): value is ProviderLinkStatus =>
  (providerLinkStatuses as readonly (string | null)[]).includes(value);

/**
 * The configured third-party providers: each linked one with the name the person has there and a way
 * to unlink it, each other one with a way to link it (by signing in there).
 */
export function Providers({ credentials }: { readonly credentials: readonly Credential[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const providers = useProviders();
  const relativeTime = useRelativeTime();
  const [search] = useSearchParams();
  const [pending, setPending] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Credential | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const nameOf = (key: string) => providers.find((provider) => provider.key === key)?.name ?? key;

  // How linking went, as the address says once the browser is back from the provider.
  const status = search.get("link");
  const statusProvider = search.get("provider");
  const returned =
    outcome === null && isLinkStatus(status) && statusProvider !== null
      ? { status, text: t(`account.providers.status.${status}`, { provider: nameOf(statusProvider) }) }
      : null;

  async function link(key: string): Promise<void> {
    setPending(key);
    setOutcome(null);
    try {
      window.location.assign(await startProviderLink(key));
    } catch (caught) {
      setOutcome({ error: errorMessage(t, caught instanceof ApiError ? caught.code : "unexpected") });
      setPending(null);
    }
  }

  async function unlink(credential: Credential): Promise<void> {
    setConfirming(null);
    setPending(credential.id);
    setOutcome(null);
    try {
      showAccount(queryClient, await removeCredential(credential.id));
      setOutcome({ message: t("account.providers.unlinked", { provider: nameOf(credential.provider) }) });
    } catch (caught) {
      setOutcome({ error: errorMessage(t, caught instanceof ApiError ? caught.code : "unexpected") });
    } finally {
      setPending(null);
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-700 dark:text-slate-300">{t("account.providers.hint")}</p>
      <CardList>
        {providers.map((provider) => {
          const linked = credentials.filter((credential) => credential.provider === provider.key);
          return (
            <CardItem key={provider.key}>
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div className="flex min-w-0 flex-col gap-1">
                  <p className="flex items-center gap-2 font-semibold">
                    <ProviderIcon />
                    {provider.name}
                  </p>
                  {linked.map((credential) => (
                    <p key={credential.id} className="text-sm break-words text-slate-700 dark:text-slate-300">
                      {t("account.providers.linkedAs", { name: credential.name })}
                      {" · "}
                      {t("account.passkeys.created", { time: relativeTime(credential.createdAt) })}
                    </p>
                  ))}
                  {linked.some(({ removable }) => !removable) && (
                    <p className="text-sm text-slate-700 dark:text-slate-300">
                      {t("account.providers.lastWay")}
                    </p>
                  )}
                </div>
                {linked.length === 0 ? (
                  <Button
                    variant="secondary"
                    busy={pending === provider.key}
                    disabled={pending !== null}
                    onClick={() => void link(provider.key)}
                  >
                    {t("account.providers.link", { provider: provider.name })}
                  </Button>
                ) : (
                  linked
                    .filter(({ removable }) => removable)
                    .map((credential) => (
                      <Button
                        key={credential.id}
                        variant="secondary"
                        busy={pending === credential.id}
                        disabled={pending !== null}
                        aria-label={t("account.providers.unlinkOf", {
                          provider: provider.name,
                          name: credential.name,
                        })}
                        onClick={() => setConfirming(credential)}
                      >
                        {t("account.providers.unlink")}
                      </Button>
                    ))
                )}
              </div>
            </CardItem>
          );
        })}
      </CardList>
      {outcome && "error" in outcome && <Alert message={outcome.error} />}
      {returned && returned.status !== "linked" && <Alert message={returned.text} />}
      <p role="status" className="font-medium text-slate-800 dark:text-slate-200">
        {outcome && "message" in outcome
          ? outcome.message
          : returned?.status === "linked"
            ? returned.text
            : ""}
      </p>
      <ConfirmDialog
        open={confirming !== null}
        title={t("account.providers.confirmTitle", { provider: nameOf(confirming?.provider ?? "") })}
        confirmLabel={t("account.providers.confirm")}
        destructive
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) void unlink(confirming);
        }}
      >
        <p>
          {t("account.providers.confirmMessage", {
            provider: nameOf(confirming?.provider ?? ""),
            name: confirming?.name ?? "",
          })}
        </p>
      </ConfirmDialog>
    </div>
  );
}
