import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../../i18n/index.ts";
import type { ConnectedApp } from "../../../common/api/account-sessions.ts";
import { scopeDescription } from "../../../common/scopes.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Labels } from "../../components/Labels.tsx";
import { LoadedList } from "../../components/LoadedList.tsx";
import { useRelativeTime } from "../activity/relativeTime.ts";
import { ActionOutcome, useConfirmedAction } from "./confirmedAction.tsx";
import { appsQuery, disconnectApp } from "./sessionsApi.ts";

/**
 * The apps the person gave an identity to, in every organization: which identity each knows them by,
 * what it was given and when; any of them disconnected.
 */
export function ConnectedApps() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({ ...appsQuery, select: (data) => data.apps });
  const action = useConfirmedAction<ConnectedApp>();
  const { confirming } = action;

  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-700 dark:text-slate-300">{t("account.apps.hint")}</p>
      <LoadedList query={query} empty={t("account.apps.none")}>
        {(apps) => (
          <CardList>
            {apps.map((app) => (
              <AppCard
                key={app.id}
                app={app}
                busy={action.running === app}
                disabled={action.running !== null}
                onDisconnect={() => action.ask(app)}
              />
            ))}
          </CardList>
        )}
      </LoadedList>
      <ActionOutcome outcome={action.outcome} />
      <ConfirmDialog
        open={confirming !== null}
        title={t("account.apps.confirmTitle", { app: confirming?.applicationName ?? "" })}
        confirmLabel={t("account.apps.disconnect")}
        destructive
        onCancel={action.cancel}
        onConfirm={() => {
          if (confirming)
            void action.run(
              confirming,
              () => disconnectApp(queryClient, confirming.id),
              t("account.apps.disconnected", { app: confirming.applicationName }),
            );
        }}
      >
        <p>{t("account.apps.confirmMessage", { app: confirming?.applicationName ?? "" })}</p>
      </ConfirmDialog>
    </div>
  );
}

function AppCard({
  app,
  busy,
  disabled,
  onDisconnect,
}: {
  readonly app: ConnectedApp;
  readonly busy: boolean;
  readonly disabled: boolean;
  readonly onDisconnect: () => void;
}) {
  const { t, language } = useTranslation();
  const relativeTime = useRelativeTime();
  const given = [
    ...app.personalData.map((scope) => t(`authFlow.identity.data.${scope}`)),
    ...app.appScopes.map((scope) => scopeDescription(scope, language)),
    ...(app.offlineAccess ? [t("account.apps.offlineAccess")] : []),
  ];
  return (
    <CardItem
      actions={
        !app.console && (
          <Button
            variant="secondary"
            busy={busy}
            disabled={disabled}
            aria-label={t("account.apps.disconnectOf", { app: app.applicationName })}
            onClick={onDisconnect}
          >
            {t("account.apps.disconnect")}
          </Button>
        )
      }
    >
      <p className="font-semibold break-words">
        {app.applicationName}
        <Labels labels={app.console ? [t("account.apps.console")] : []} />
      </p>
      <p className="text-sm break-words text-slate-700 dark:text-slate-300">
        {[
          t("account.apps.organization", { organization: app.organizationName }),
          t("account.apps.identity", { identity: app.identityName }),
          t("account.apps.connected", { time: relativeTime(app.connectedAt) }),
        ].join(" · ")}
      </p>
      <p className="mt-1 text-sm break-words text-slate-700 dark:text-slate-300">
        {given.length > 0
          ? t("account.apps.given", { data: given.join("; ") })
          : t("account.apps.givenNothing")}
      </p>
      {app.console && (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{t("account.apps.consoleHint")}</p>
      )}
    </CardItem>
  );
}
