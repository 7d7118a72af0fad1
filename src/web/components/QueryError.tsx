import { useTranslation } from "../i18n/index.ts";
import { ApiError, errorMessage } from "../api.ts";
import { Alert } from "./Alert.tsx";

/**
 * Why data could not be loaded: the server's reason when it gave one (not found, ...), that it could
 * not be reached at all, else the generic one, with the request ID of a server fault so the
 * administrators can find it in the log.
 */
export function QueryError({ error }: { readonly error: unknown }) {
  const { t } = useTranslation();
  const apiError = error instanceof ApiError ? error : undefined;
  const known =
    apiError !== undefined &&
    (apiError.code === "unreachable" || (apiError.status >= 400 && apiError.status < 500));
  const message = known ? errorMessage(t, apiError.code) : t("errors.loadingDataFailed");
  const requestId = apiError?.requestId;
  return (
    <Alert
      message={requestId ? `${message} ${t("errorPages.requestIdInline", { id: requestId })}` : message}
    />
  );
}
