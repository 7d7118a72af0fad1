import { useInfiniteQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link, useNavigate } from "react-router";
import { pathFor } from "../../../common/routes.ts";
import { Button } from "../../components/Button.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { SignedInContent } from "../../components/SignedInContent.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { ActivityEntries } from "../activity/ActivityEntries.tsx";
import { accountActivityQuery } from "../activity/activityApi.ts";
import { endOtherSessions } from "./accountApi.ts";

/** Where the account page's password section is: "This wasn't me" leads there. */
export const passwordAnchor = "password";

/**
 * The account's sign-ins and changes to how it signs in, newest first, a few at a time, each linking to
 * its entry; "This wasn't me" signs out every other browser and leads to changing the password.
 */
export function SecurityActivity() {
  const { t } = useTranslation();
  const activity = useInfiniteQuery(accountActivityQuery());
  const entries = useMemo(() => activity.data?.pages.flatMap((page) => page.items) ?? [], [activity.data]);
  return (
    <>
      <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between sm:gap-6">
        <p className="text-slate-700 dark:text-slate-300">{t("account.security.description")}</p>
        <Link
          to={pathFor("ActivityList")}
          className="shrink-0 self-start text-sm font-medium text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-200"
        >
          {t("account.security.allActivity")}
        </Link>
      </div>
      <SignedInContent signedOutMessage={t("account.signedOut")} query={activity}>
        {() => (
          <ActivityEntries
            entries={entries}
            entryPath={(entry) => pathFor("ActivityGet", { id: entry.id })}
            empty={t("account.security.empty")}
            hasMore={activity.hasNextPage}
            loadingMore={activity.isFetchingNextPage}
            failedMore={activity.isFetchNextPageError}
            onLoadMore={() => void activity.fetchNextPage()}
          />
        )}
      </SignedInContent>
      <NotMe />
    </>
  );
}

/** "This wasn't me": asks first, signs every other browser out, then opens the password section. */
function NotMe() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const action = useAction();
  const [asking, setAsking] = useState(false);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-amber-800/70 dark:bg-amber-950/40">
        <p className="font-medium text-slate-900 dark:text-slate-100">{t("account.security.notMeHint")}</p>
        <div className="shrink-0">
          <Button variant="secondary" onClick={() => setAsking(true)} {...action.button("notMe")}>
            {t("account.security.notMe")}
          </Button>
        </div>
      </div>
      <ActionFeedback action={action} only="notMe" />
      <ConfirmDialog
        open={asking}
        title={t("account.security.confirmTitle")}
        confirmLabel={t("account.security.confirm")}
        destructive
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          void action.run(
            async () => {
              await endOtherSessions();
              await navigate({ hash: passwordAnchor });
              document.getElementById(passwordAnchor)?.scrollIntoView({ block: "start" });
            },
            t("account.security.done"),
            "notMe",
          );
        }}
      >
        <p>{t("account.security.confirmMessage")}</p>
      </ConfirmDialog>
    </div>
  );
}
