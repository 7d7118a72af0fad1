import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Organization, OrganizationUpdate } from "../../../common/api/organization.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { updateOf, updateOrganization } from "./organizationApi.ts";

/** Client secrets by client ID, as an update made them: shown once. */
export type Secrets = Record<string, string>;

/**
 * Saves changes of one part of an organization (an application, a template being added): busy while
 * it runs, then the error or what was done, which the next change or save clears. New secrets go to
 * `onSecrets`.
 */
export function useOrganizationSave(organization: Organization, onSecrets: (secrets: Secrets) => void) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [message, setMessage] = useState("");

  /** Saves `change` of the current state; `done` is said after it succeeded. True when it did. */
  async function save(
    change: (update: OrganizationUpdate) => OrganizationUpdate,
    done: string,
  ): Promise<boolean> {
    if (busy) return false;
    setBusy(true);
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
      setBusy(false);
    }
  }
  return { busy, error, message, save, clearMessage: () => setMessage("") };
}

export type OrganizationSave = ReturnType<typeof useOrganizationSave>;

/** The outcome of the last save, where it was made: its translated error, or what was done. */
export function SaveOutcome({ state }: { readonly state: OrganizationSave }) {
  const { t } = useTranslation();
  return (
    <>
      {state.error !== null && <Alert message={errorMessage(t, state.error.code, state.error.values)} />}
      <p role="status" className="font-medium text-green-800">
        {state.message}
      </p>
    </>
  );
}
