import { useId, useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Credential } from "../../../common/api/account.ts";
import { Button } from "../../components/Button.tsx";
import { CardItem } from "../../components/Cards.tsx";
import { Labels } from "../../components/Labels.tsx";
import { useRelativeTime } from "../activity/relativeTime.ts";
import { RenameForm } from "./RenameForm.tsx";

interface PasskeyCardProps {
  readonly passkey: Credential;
  /** Another passkey is being renamed or removed: this one's buttons wait. */
  readonly disabled: boolean;
  readonly removing: boolean;
  readonly onRename: (name: string) => Promise<void>;
  readonly onRemove: () => void;
}

/** One passkey: its name, where it is kept and when it was used; renamed in place, or removed. */
export function PasskeyCard({ passkey, disabled, removing, onRename, onRemove }: PasskeyCardProps) {
  const { t } = useTranslation();
  const relativeTime = useRelativeTime();
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const lastWayId = useId();

  const closeRename = () => {
    setRenaming(false);
    // After the form is gone and the button is back.
    setTimeout(() => renameButton.current?.focus(), 0);
  };

  const details = [
    passkey.authenticator && t("account.passkeys.authenticator", { name: passkey.authenticator }),
    t("account.passkeys.created", { time: relativeTime(passkey.createdAt) }),
    passkey.lastUsedAt
      ? t("account.passkeys.lastUsed", { time: relativeTime(passkey.lastUsedAt) })
      : t("account.passkeys.neverUsed"),
  ].filter(Boolean);

  if (renaming)
    return (
      <CardItem>
        <RenameForm
          name={passkey.name}
          onCancel={closeRename}
          onSave={async (name) => {
            await onRename(name);
            closeRename();
          }}
        />
      </CardItem>
    );

  return (
    <CardItem
      actions={
        <>
          <Button
            ref={renameButton}
            variant="secondary"
            disabled={disabled}
            aria-label={t("account.passkeys.renameOf", { name: passkey.name })}
            onClick={() => setRenaming(true)}
          >
            {t("account.passkeys.rename")}
          </Button>
          <Button
            variant="secondary"
            busy={removing}
            disabled={disabled || !passkey.removable}
            aria-label={t("account.passkeys.removeOf", { name: passkey.name })}
            aria-describedby={passkey.removable ? undefined : lastWayId}
            onClick={onRemove}
          >
            {t("account.passkeys.remove")}
          </Button>
        </>
      }
    >
      <p className="font-semibold break-words">
        {passkey.name}
        <Labels
          labels={[passkey.synced ? t("account.passkeys.synced") : t("account.passkeys.deviceBound")]}
        />
      </p>
      <p className="text-sm text-slate-700 dark:text-slate-300">{details.join(" · ")}</p>
      {!passkey.removable && (
        <p id={lastWayId} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {t("account.passkeys.lastWay")}
        </p>
      )}
    </CardItem>
  );
}
