import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { ApiError, errorMessage } from "../api.ts";
import { Alert } from "../components/Alert.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { followRequestedLocale } from "../i18n/index.ts";
import { flowQuery } from "../partials/auth/flowApi.ts";
import { FlowPage } from "../partials/auth/FlowPage.tsx";

/** The auth flow page (spec §2): an app asks the person to sign in or sign up. */
export function AuthFlow() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const flow = useQuery(flowQuery(id));
  useDocumentTitle(t("authFlow.title"));
  const requestedLocale = flow.data?.locale;
  useEffect(() => {
    if (requestedLocale) followRequestedLocale(requestedLocale);
  }, [requestedLocale]);

  if (flow.isPending) return <p role="status">{t("app.loading")}</p>;
  if (flow.isError) {
    return (
      <Alert message={errorMessage(t, flow.error instanceof ApiError ? flow.error.code : "unexpected")} />
    );
  }
  return <FlowPage key={id} flowId={id} initial={flow.data} />;
}
