import { useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Button } from "../../components/Button.tsx";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";
import { ClientCard } from "./ClientCard.tsx";
import type { FieldErrors } from "./fieldErrors.ts";
import {
  clientKinds,
  clientListOf,
  newClient,
  type ClientDraft,
  type ClientKind,
  type TemplateDraft,
} from "./templateDraft.ts";

type Clients = TemplateDraft["clients"];

/**
 * The template's clients as cards, public ones first, then backend and service ones, with a button
 * to add each kind. Removing a saved client asks first: its ID is gone for good once saved.
 */
export function ClientList({
  clients,
  variables,
  errors,
  onChange,
}: {
  readonly clients: Clients;
  /** New clients redirect to the `uriBase` variable when there is one. */
  readonly variables: TemplateDraft["variables"];
  readonly errors: FieldErrors;
  readonly onChange: (clients: Clients) => void;
}) {
  const { t } = useTranslation();
  const [removing, setRemoving] = useState<{ client: ClientDraft; name: string } | null>(null);

  const update = (kind: ClientKind, list: readonly ClientDraft[]) => onChange({ ...clients, [kind]: list });
  const remove = (client: ClientDraft) =>
    update(
      client.kind,
      clients[client.kind].filter((other) => other.key !== client.key),
    );
  const count = clientKinds.reduce((sum, kind) => sum + clients[kind].length, 0);

  return (
    <>
      <p className="text-sm text-slate-700 dark:text-slate-300">{t("templates.clients.hint")}</p>
      {count === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">{t("templates.clients.none")}</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {clientKinds.flatMap((kind) =>
            clients[kind].map((client, index) => {
              const name = t(`templates.clients.kinds.${kind}.item`, { number: index + 1 });
              return (
                <li key={client.key}>
                  <ClientCard
                    client={client}
                    name={name}
                    path={`${clientListOf[kind]}.${index}`}
                    errors={errors}
                    onChange={(fields) =>
                      update(
                        kind,
                        clients[kind].map((other) =>
                          other.key === client.key ? { ...other, ...fields } : other,
                        ),
                      )
                    }
                    onRemove={() =>
                      client.id === undefined ? remove(client) : setRemoving({ client, name })
                    }
                  />
                </li>
              );
            }),
          )}
        </ul>
      )}
      <div className="flex flex-wrap gap-3">
        {clientKinds.map((kind) => (
          <Button
            key={kind}
            variant="secondary"
            onClick={() => update(kind, [...clients[kind], newClient(kind, variables)])}
          >
            {t(`templates.clients.kinds.${kind}.add`)}
          </Button>
        ))}
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={t("templates.clients.remove.title", { name: removing?.name ?? "" })}
        confirmLabel={t("common.remove")}
        destructive
        onConfirm={() => {
          if (removing) remove(removing.client);
          setRemoving(null);
        }}
        onCancel={() => setRemoving(null)}
      >
        <p>{t("templates.clients.remove.message")}</p>
      </ConfirmDialog>
    </>
  );
}
