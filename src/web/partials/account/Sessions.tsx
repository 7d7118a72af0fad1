import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../../i18n/index.ts";
import type { AccountSession } from "../../../common/api/account-sessions.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { Labels } from "../../components/Labels.tsx";
import { LoadedList } from "../../components/LoadedList.tsx";
import { useRelativeTime } from "../activity/relativeTime.ts";
import { ActionOutcome, useConfirmedAction } from "./confirmedAction.tsx";
import { endOtherSessions, endSession, sessionsQuery } from "./sessionsApi.ts";

/** What "everywhere else" stands for in the confirmation. */
const everywhereElse = "others";

/**
 * Where the person is signed in: each browser by its name and system, when it signed in and was last
 * used, this one marked; any other one signed out, or all of them at once.
 */
export function Sessions() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({ ...sessionsQuery, select: (data) => data.sessions });
  const action = useConfirmedAction<AccountSession | typeof everywhereElse>();
  const others = (query.data ?? []).filter(({ current }) => !current);
  const { confirming } = action;

  const confirm = () => {
    if (confirming === everywhereElse)
      void action.run(confirming, () => endOtherSessions(queryClient), t("account.sessions.endedOthers"));
    else if (confirming)
      void action.run(
        confirming,
        () => endSession(queryClient, confirming.id),
        t("account.sessions.ended", { device: deviceName(t, confirming) }),
      );
  };

  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-700 dark:text-slate-300">{t("account.sessions.hint")}</p>
      <LoadedList query={query} empty={t("account.sessions.none")}>
        {(sessions) => (
          <CardList>
            {sessions.map((session) => (
              <SessionCard
                key={session.id}
                session={session}
                busy={action.running === session}
                disabled={action.running !== null}
                onEnd={() => action.ask(session)}
              />
            ))}
          </CardList>
        )}
      </LoadedList>
      {others.length > 0 && (
        <div>
          <Button
            variant="secondary"
            busy={action.running === everywhereElse}
            disabled={action.running !== null}
            onClick={() => action.ask(everywhereElse)}
          >
            {t("account.sessions.endOthers")}
          </Button>
        </div>
      )}
      <ActionOutcome outcome={action.outcome} />
      <ConfirmDialog
        open={confirming !== null}
        title={
          confirming === everywhereElse
            ? t("account.sessions.confirmOthersTitle", { count: others.length })
            : t("account.sessions.confirmTitle", { device: confirming ? deviceName(t, confirming) : "" })
        }
        confirmLabel={
          confirming === everywhereElse ? t("account.sessions.endOthers") : t("account.sessions.end")
        }
        destructive
        onCancel={action.cancel}
        onConfirm={confirm}
      >
        <p>{t("account.sessions.confirmMessage")}</p>
      </ConfirmDialog>
    </div>
  );
}

type Translate = ReturnType<typeof useTranslation>["t"];

/** "Chrome on Windows", "Firefox", "A browser on Android", "An unknown browser". */
function deviceName(t: Translate, { browser, os }: AccountSession): string {
  if (browser && os) return t("account.sessions.browserOn", { browser, os });
  if (browser) return browser;
  if (os) return t("account.sessions.unknownBrowserOn", { os });
  return t("account.sessions.unknownBrowser");
}

function SessionCard({
  session,
  busy,
  disabled,
  onEnd,
}: {
  readonly session: AccountSession;
  readonly busy: boolean;
  readonly disabled: boolean;
  readonly onEnd: () => void;
}) {
  const { t } = useTranslation();
  const relativeTime = useRelativeTime();
  const name = deviceName(t, session);
  return (
    <CardItem
      actions={
        !session.current && (
          <Button
            variant="secondary"
            busy={busy}
            disabled={disabled}
            aria-label={t("account.sessions.endOf", { device: name })}
            onClick={onEnd}
          >
            {t("account.sessions.end")}
          </Button>
        )
      }
    >
      <p className="font-semibold break-words">
        {name}
        <Labels
          labels={[
            ...(session.current ? [t("account.sessions.current")] : []),
            ...(session.mobile ? [t("account.sessions.mobile")] : []),
          ]}
        />
      </p>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {[
          t("account.sessions.signedIn", { time: relativeTime(session.signedInAt) }),
          t("account.sessions.lastActive", { time: relativeTime(session.lastActiveAt) }),
        ].join(" · ")}
      </p>
    </CardItem>
  );
}
