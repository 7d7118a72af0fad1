import { useTranslation } from "../../i18n/index.ts";
import { Button } from "../../components/Button.tsx";
import type { Action } from "../../components/useAction.tsx";
import type { ConfirmationRequest } from "../organization/useConfirmation.tsx";

/** Where the words of the buttons live: an organization's identities, or an identity's organizations. */
export type MembershipTexts = "organizations.identities" | "identities.organizations";

/**
 * An identity's membership in an organization, as its admin changes it: activate it, or disable it
 * after asking, and end it after asking. `save` stores the membership active, inactive or (null) gone.
 */
export function MembershipButtons({
  active,
  name,
  itemKey,
  describedBy,
  removeLabel,
  action,
  ask,
  save,
  texts,
}: {
  readonly active: boolean;
  /** What the dialogs and outcomes name: the identity, or the organization. */
  readonly name: string;
  /** Names the membership among others, for the busy state of its own buttons. */
  readonly itemKey: string;
  /** The ID of the name the buttons are about. */
  readonly describedBy: string;
  /** The button that ends the membership. */
  readonly removeLabel: string;
  readonly action: Action;
  readonly ask: (request: ConfirmationRequest) => void;
  readonly save: (active: boolean | null, done: string, key: string) => void;
  readonly texts: MembershipTexts;
}) {
  const { t } = useTranslation();
  const statusKey = `${itemKey}:status`;
  const removeKey = `${itemKey}:remove`;
  return (
    <>
      <Button
        variant="secondary"
        {...action.button(statusKey)}
        aria-describedby={describedBy}
        onClick={() => {
          if (!active) return save(true, t(`${texts}.activated`, { name }), statusKey);
          ask({
            title: t(`${texts}.disableConfirm.title`, { name }),
            message: t(`${texts}.disableConfirm.message`),
            confirmLabel: t("organizations.disable"),
            onConfirm: () => save(false, t(`${texts}.disabled`, { name }), statusKey),
          });
        }}
      >
        {active ? t("organizations.disable") : t("organizations.activate")}
      </Button>
      <Button
        variant="secondary"
        {...action.button(removeKey)}
        aria-describedby={describedBy}
        onClick={() =>
          ask({
            title: t(`${texts}.removeConfirm.title`, { name }),
            message: t(`${texts}.removeConfirm.message`),
            confirmLabel: t(`${texts}.removeConfirm.confirm`),
            destructive: true,
            onConfirm: () => save(null, t(`${texts}.removed`, { name }), removeKey),
          })
        }
      >
        {removeLabel}
      </Button>
    </>
  );
}
