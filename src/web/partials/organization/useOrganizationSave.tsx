import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Organization, OrganizationUpdate } from "../../../common/api/organization.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { actionButton } from "../../components/useAction.tsx";
import { updateOf, updateOrganization } from "./organizationApi.ts";

/** Client secrets by client ID, as an update made them: shown once. */
export type Secrets = Record<string, string>;

/**
 * Saves changes of one part of an organization (an application, a template being added): busy while
 * it runs (the button of its `key` showing it), then the error or what was done, which the next change
 * or save clears. New secrets go to `onSecrets`.
 */
export function useOrganizationSave(organization: Organization, onSecrets: (secrets: Secrets) => void) {
  const queryClient = useQueryClient();
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const busy = busyKey !== null;
  const [error, setError] = useState<ApiError | null>(null);
  const [message, setMessage] = useState("");

  /** Saves `change` of the current state; `done` is said after it succeeded. True when it did. */
  async function save(
    change: (update: OrganizationUpdate) => OrganizationUpdate,
    done: string,
    key = "",
  ): Promise<boolean> {
    if (busy) return false;
    setBusyKey(key);
    setError(null);
    setMessage("");
    try {
      const updated = await updateOrganization(queryClient, organization.id, change(updateOf(organization)));
      if (updated.secrets && updated.secrets.length > 0)
        onSecrets(Object.fromEntries(updated.secrets.map(({ clientId, secret }) => [clientId, secret])));
      setMessage(done);
      return true;
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError("unexpected", 0));
      return false;
    } finally {
      setBusyKey(null);
    }
  }
  return {
    busy,
    error,
    message,
    save,
    /** The `busy` and `disabled` props of the button that saves with this key. */
    button: (key: string) => actionButton(busyKey, key),
    clearMessage: () => setMessage(""),
  };
}

export type OrganizationSave = ReturnType<typeof useOrganizationSave>;

/** The outcome of the last save, where it was made: its translated error, or what was done. */
export function SaveOutcome({ state }: { readonly state: OrganizationSave }) {
  const { t } = useTranslation();
  return (
    <>
      {state.error !== null && <Alert message={errorMessage(t, state.error.code, state.error.values)} />}
      <p role="status" className="font-medium text-green-800 dark:text-green-300">
        {state.message}
      </p>
    </>
  );
}
