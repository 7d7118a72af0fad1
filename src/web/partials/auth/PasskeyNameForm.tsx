import { useEffect, useId, useRef } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { SignUpNameError } from "../../../common/api/flow.ts";
import { Button } from "../../components/Button.tsx";
import { TextField } from "../../components/Field.tsx";
import { PasskeyIcon } from "../../components/icons.tsx";
import { StepFooter } from "./StepForm.tsx";
import { StepHeading } from "./StepHeading.tsx";
import { mistakeMessage } from "./steps.ts";
import type { PasskeyNaming } from "./passkeySignUp.ts";

interface PasskeyNameFormProps {
  readonly naming: PasskeyNaming;
  readonly onChange: (naming: PasskeyNaming) => void;
  /** The server refused what was typed: the message shows at the field it is about. */
  readonly mistake: SignUpNameError | null;
  readonly onSubmit: () => void;
  readonly onOtherMethod: () => void;
}

/**
 * Before a passkey sign-up: what the new account's first identity is called, a username or a name,
 * and an e-mail address if the person likes. Apps see it; nothing random stands in for it.
 */
export function PasskeyNameForm({
  naming,
  onChange,
  mistake,
  onSubmit,
  onOtherMethod,
}: PasskeyNameFormProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const nameField = useRef<HTMLInputElement>(null);
  const emailField = useRef<HTMLInputElement>(null);
  const emailMistake = mistake === "invalidEmail";
  const message = mistake && mistakeMessage(t, mistake, emailMistake ? naming.email : naming.name);

  // The field to fill in or correct has the focus: the name at first, else the one with the mistake.
  useEffect(() => {
    (emailMistake ? emailField : nameField).current?.focus();
  }, [mistake, emailMistake]);

  return (
    <form
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      className="flex flex-col gap-5"
    >
      <StepHeading id={headingId}>{t("authFlow.passkey.signUpHeading")}</StepHeading>
      <p>{t("authFlow.passkey.nameIntro")}</p>
      <TextField
        ref={nameField}
        label={t("authFlow.passkey.nameLabel")}
        hint={t("authFlow.passkey.nameHint")}
        name="name"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={naming.name}
        onChange={(event) => onChange({ ...naming, name: event.target.value })}
        error={emailMistake ? null : message}
      />
      <TextField
        ref={emailField}
        type="email"
        label={t("authFlow.passkey.emailLabel")}
        hint={t("authFlow.passkey.emailHint")}
        name="email"
        autoComplete="email"
        spellCheck={false}
        value={naming.email}
        onChange={(event) => onChange({ ...naming, email: event.target.value })}
        error={emailMistake ? message : null}
      />
      <Button type="submit" size="large" className="w-full">
        <PasskeyIcon />
        {t("authFlow.passkey.create")}
      </Button>
      <StepFooter>
        <Button variant="link" onClick={onOtherMethod}>
          {t("authFlow.passkey.otherMethod")}
        </Button>
      </StepFooter>
    </form>
  );
}
