import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { pathFor } from "../../../common/routes.ts";
import { Link } from "react-router";
import type { Identity } from "../../../common/api/identity.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
import { IdentityCard } from "../identity/IdentityCard.tsx";
import {
  identitiesQuery,
  identityQuery,
  invalidateAfterIdentityChange,
  updateIdentity,
} from "../identity/identityApi.ts";

type Memberships = { organizationId: string; active: boolean }[];

/** The signed-in person's identities in this organization, and those that can join it. */
export function OrganizationIdentities({ organizationId }: { readonly organizationId: string }) {
  const { t } = useTranslation();
  const addedId = useId();
  const availableId = useId();
  const queryClient = useQueryClient();
  const list = useQuery(identitiesQuery);
  const identities = useQueries({
    queries: (list.data ?? [])
      .filter((identity) => identity.canUpdate)
      .map((identity) => identityQuery(identity.id)),
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const loaded = identities.flatMap((query) => (query.data ? [query.data] : []));
  const membership = (identity: Identity) =>
    identity.organizations?.find((organization) => organization.organizationId === organizationId);
  const added = loaded.filter((identity) => membership(identity) !== undefined);
  const available = loaded.filter((identity) => membership(identity) === undefined);

  async function save(identity: Identity, change: (memberships: Memberships) => Memberships): Promise<void> {
    if (busy) return;
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const { username, email, givenName, fullName, pictureUrl, description } = identity;
      const fields = Object.fromEntries(
        Object.entries({ username, email, givenName, fullName, pictureUrl, description }).filter(
          ([, value]) => value !== undefined && value !== "",
        ),
      );
      const current = (identity.organizations ?? []).map(({ organizationId: id, active }) => ({
        organizationId: id,
        active,
      }));
      const updated = await updateIdentity(identity.id, {
        ...fields,
        version: identity.version,
        organizations: change(current),
      });
      queryClient.setQueryData(identityQuery(identity.id).queryKey, updated);
      await invalidateAfterIdentityChange(queryClient);
      setSaved(true);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.code : "unexpected");
    } finally {
      setBusy(false);
    }
  }

  const thisOne = (memberships: Memberships, change: (active: boolean) => boolean | null) =>
    memberships.flatMap((m) => {
      if (m.organizationId !== organizationId) return [m];
      const active = change(m.active);
      return active === null ? [] : [{ ...m, active }];
    });

  if (list.isError)
    return (
      <Alert message={errorMessage(t, list.error instanceof ApiError ? list.error.code : "unexpected")} />
    );

  return (
    <>
      <section aria-labelledby={addedId} className="flex flex-col gap-4 border-t border-slate-200 pt-6">
        <h2 id={addedId} className="text-xl font-semibold">
          {t("organizations.identities.added")}
        </h2>
        {added.length === 0 ? (
          <p className="text-slate-700">{t("organizations.identities.noneAdded")}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {added.map((identity) => {
              const active = membership(identity)?.active ?? false;
              const scopedId = membership(identity)?.id ?? "";
              return (
                <IdentityCard
                  key={identity.id}
                  identity={identity}
                  nameId={`${addedId}-${identity.id}`}
                  labels={[active ? t("common.labels.active") : t("common.labels.disabled")]}
                >
                  <Link
                    to={pathFor("OrganizationIdentity", { id: organizationId, identityId: scopedId })}
                    aria-describedby={`${addedId}-${identity.id}`}
                    className="self-center text-sm text-blue-700 underline hover:text-blue-900"
                  >
                    {t("organizations.identity.view")}
                  </Link>
                  <Button
                    variant="secondary"
                    disabled={busy}
                    aria-describedby={`${addedId}-${identity.id}`}
                    onClick={() => void save(identity, (ms) => thisOne(ms, (was) => !was))}
                  >
                    {active ? t("organizations.disable") : t("organizations.activate")}
                  </Button>
                  <Button
                    variant="secondary"
                    disabled={busy}
                    aria-describedby={`${addedId}-${identity.id}`}
                    onClick={() => void save(identity, (ms) => thisOne(ms, () => null))}
                  >
                    {t("common.remove")}
                  </Button>
                </IdentityCard>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby={availableId} className="flex flex-col gap-4 border-t border-slate-200 pt-6">
        <h2 id={availableId} className="text-xl font-semibold">
          {t("organizations.identities.available")}
        </h2>
        {available.length === 0 ? (
          <p className="text-slate-700">{t("organizations.identities.noneAvailable")}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {available.map((identity) => (
              <IdentityCard
                key={identity.id}
                identity={identity}
                nameId={`${availableId}-${identity.id}`}
                labels={[]}
              >
                <Button
                  variant="secondary"
                  disabled={busy}
                  aria-describedby={`${availableId}-${identity.id}`}
                  onClick={() => void save(identity, (ms) => [...ms, { organizationId, active: true }])}
                >
                  {t("organizations.identities.join")}
                </Button>
              </IdentityCard>
            ))}
          </ul>
        )}
        {error !== null && <Alert message={errorMessage(t, error)} />}
        <p role="status" className="font-medium text-green-800">
          {saved ? t("identities.form.updated") : ""}
        </p>
      </section>
    </>
  );
}
