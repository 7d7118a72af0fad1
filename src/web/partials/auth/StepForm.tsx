import { useId, type ComponentPropsWithRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { TextField } from "../../components/Field.tsx";
import { StepHeading } from "./StepHeading.tsx";
import { mistakeMessage } from "./steps.ts";
import type { StepFailure } from "./useStepAction.ts";

type FieldProps = Omit<ComponentPropsWithRef<"input">, "children"> & {
  readonly label: string;
  readonly hint?: string | undefined;
};

interface StepFormProps {
  readonly heading: ReactNode;
  /** Enter in the field, or the submit button among the actions. */
  readonly onSubmit: () => void;
  /** The step's one field; a mistake is shown under it and linked to it. */
  readonly field: FieldProps;
  /** What the person typed as their username or e-mail: mistakes are worded for the one it is. */
  readonly emailOrUsername: string;
  readonly failure: StepFailure | null;
  /** Text between the heading and the field. */
  readonly intro?: ReactNode;
  /** The buttons under the field. */
  readonly actions: ReactNode;
  /** Anything after the buttons. */
  readonly footer?: ReactNode;
}

/** The form of an auth step that asks for one value (start, password, code). */
export function StepForm({
  heading,
  onSubmit,
  field,
  emailOrUsername,
  failure,
  intro,
  actions,
  footer,
}: StepFormProps) {
  const { t } = useTranslation();
  const headingId = useId();
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
      <StepHeading id={headingId}>{heading}</StepHeading>
      {intro}
      <TextField
        {...field}
        error={failure?.kind === "mistake" ? mistakeMessage(t, failure.mistake, emailOrUsername) : null}
      />
      {failure?.kind === "other" && <Alert message={errorMessage(t, failure.code)} />}
      <div className="flex flex-wrap items-center gap-3">{actions}</div>
      {footer}
    </form>
  );
}
