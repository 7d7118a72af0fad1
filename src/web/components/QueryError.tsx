import { useTranslation } from "react-i18next";
import { ApiError, errorMessage } from "../api.ts";
import { Alert } from "./Alert.tsx";

/** Why data could not be loaded: the server's reason when it gave one (not found, ...), else the generic one. */
export function QueryError({ error }: { readonly error: unknown }) {
  const { t } = useTranslation();
  const known = error instanceof ApiError && error.status >= 400 && error.status < 500;
  return <Alert message={known ? errorMessage(t, error.code) : t("errors.loadingDataFailed")} />;
}
