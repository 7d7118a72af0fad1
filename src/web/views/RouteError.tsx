import { useTranslation } from "react-i18next";
import { useRouteError } from "react-router";
import { ApiError, errorMessage } from "../api.ts";
import { Alert } from "../components/Alert.tsx";

/** What a view shows when rendering it failed. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  return <Alert message={errorMessage(t, error instanceof ApiError ? error.code : "unexpected")} />;
}
