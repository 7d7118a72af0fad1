import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import { ApiError } from "../api.ts";
import { Button } from "../components/Button.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { followRequestedLocale } from "../i18n/index.ts";
import { flowQuery } from "../partials/auth/flowApi.ts";
import { MessagePanel } from "../components/MessagePanel.tsx";
import { FlowPage } from "../partials/auth/FlowPage.tsx";
import { FlowGoneContext } from "../partials/auth/flowGone.ts";
import { WayBack } from "../partials/auth/WayBack.tsx";

/** The auth flow page (spec §2): an app asks the person to sign in or sign up. */
export function AuthFlow() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const flow = useQuery(flowQuery(id));
  // A step answered that the flow is gone (it expired while the page was open, say).
  const [gone, setGone] = useState<ApiError | null>(null);
  const failure = gone ?? flow.error;
  // A flow that cannot be shown names the page after what happened to it.
  useDocumentTitle(failure ? t(unavailable(failure).heading) : t("authFlow.title"));
  const requestedLocale = flow.data?.locale;
  useEffect(() => {
    if (requestedLocale) followRequestedLocale(requestedLocale);
  }, [requestedLocale]);

  if (failure) {
    return <FlowUnavailable error={failure} retrying={flow.isFetching} onRetry={() => void flow.refetch()} />;
  }
  if (flow.data === undefined) return <p role="status">{t("app.loading")}</p>;
  return (
    <FlowGoneContext value={setGone}>
      <FlowPage key={id} flowId={id} initial={flow.data} />
    </FlowGoneContext>
  );
}

/** What the page says when the flow cannot be shown, by the error's code. */
function unavailable(error: Error) {
  const code = error instanceof ApiError ? error.code : "unexpected";
  if (code === "notFound")
    return {
      kind: "unknown",
      heading: "authFlow.ended.unknown",
      text: "authFlow.ended.unknownText",
    } as const;
  // The flow's session cookie is missing: it was signed in to in another browser.
  if (code === "unauthorized") {
    return {
      kind: "otherBrowser",
      heading: "authFlow.ended.otherBrowser",
      text: "authFlow.ended.otherBrowserText",
    } as const;
  }
  return {
    kind: "loadFailed",
    heading: "authFlow.ended.loadFailed",
    text: "authFlow.ended.loadFailedText",
  } as const;
}

/** Why the flow cannot be shown, in plain words, with a way back; the page's only heading. */
interface FlowUnavailableProps {
  readonly error: Error;
  readonly retrying: boolean;
  readonly onRetry: () => void;
}

function FlowUnavailable({ error, retrying, onRetry }: FlowUnavailableProps) {
  const { t } = useTranslation();
  const { kind, heading, text } = unavailable(error);
  if (kind !== "loadFailed") {
    return (
      <MessagePanel tone="gone" level={1} heading={t(heading)} actions={<WayBack />}>
        <p>{t(text)}</p>
      </MessagePanel>
    );
  }
  return (
    <MessagePanel
      tone="failed"
      level={1}
      heading={t(heading)}
      actions={
        <>
          <Button size="large" busy={retrying} onClick={onRetry}>
            {t("authFlow.ended.retry")}
          </Button>
          <WayBack variant="secondary" />
        </>
      }
    >
      <p>{t(text)}</p>
    </MessagePanel>
  );
}
