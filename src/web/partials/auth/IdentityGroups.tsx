import type { TFunction } from "../../i18n/index.ts";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Identity } from "../../../common/api/identity.ts";
import { Button } from "../../components/Button.tsx";
import { IdentityCard } from "../identity/IdentityCard.tsx";
import { groupIdentities, type IdentityGroupKey } from "./identityGroups.ts";

interface IdentityGroupsProps {
  readonly identities: Identity[];
  readonly onSelect: (identity: Identity) => void;
  /** The identity whose choice is being sent. */
  readonly selecting: string | null;
  /** An identity just created: focus moves to its Select button. */
  readonly focusId: string | null;
}

export function IdentityGroups({ identities, onSelect, selecting, focusId }: IdentityGroupsProps) {
  const { t } = useTranslation();
  const groups = groupIdentities(identities);
  return (
    <>
      {!groups.some((group) => group.selectable) && (
        <p className="rounded-md bg-slate-100 px-4 py-3 text-sm dark:bg-slate-800">
          {t("authFlow.identity.none")}
        </p>
      )}
      {groups.map((group) => (
        <IdentityGroupList key={group.key} group={group.key} title={t(`authFlow.identity.${group.heading}`)}>
          {group.identities.map((identity) => (
            <IdentityItem
              key={identity.id}
              identity={identity}
              label={
                labelOf(group.key, t) ??
                (identity.membership?.chosenForApp ? t("authFlow.identity.lastUsedLabel") : null)
              }
              onSelect={group.selectable ? () => onSelect(identity) : null}
              busy={identity.id === selecting}
              focus={identity.id === focusId}
            />
          ))}
        </IdentityGroupList>
      ))}
    </>
  );
}

function labelOf(group: IdentityGroupKey, t: TFunction): string | null {
  if (group === "blocked") return t("authFlow.identity.blockedLabel");
  if (group === "disabled") return t("authFlow.identity.disabledLabel");
  return null;
}

function IdentityGroupList({
  group,
  title,
  children,
}: {
  readonly group: IdentityGroupKey;
  readonly title: string;
  readonly children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-group={group}>
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300">
        {title}
      </h3>
      <ul className="flex flex-col gap-2">{children}</ul>
    </section>
  );
}

interface IdentityItemProps {
  readonly identity: Identity;
  readonly label: string | null;
  readonly onSelect: (() => void) | null;
  readonly busy: boolean;
  readonly focus: boolean;
}

function IdentityItem({ identity, label, onSelect, busy, focus }: IdentityItemProps) {
  const { t } = useTranslation();
  const nameId = useId();
  const selectButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus) selectButton.current?.focus();
  }, [focus]);

  return (
    <IdentityCard identity={identity} labels={label ? [label] : []} nameId={nameId}>
      {identity.blocked && identity.blockNote && (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t("authFlow.identity.blockNote", { note: identity.blockNote })}
        </p>
      )}
      {onSelect && (
        // At the end of the row, also when it wraps under the name on a narrow screen.
        <Button
          ref={selectButton}
          className="ms-auto"
          onClick={onSelect}
          busy={busy}
          aria-describedby={nameId}
        >
          {identity.membership?.chosenForApp
            ? t("authFlow.identity.continue")
            : t("authFlow.identity.select")}
        </Button>
      )}
    </IdentityCard>
  );
}
