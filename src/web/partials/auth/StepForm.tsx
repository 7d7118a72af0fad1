import { useId, type ComponentPropsWithRef, type ReactNode, type RefObject } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button } from "../../components/Button.tsx";
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
  /** For a step that starts at its heading rather than at its field. */
  readonly headingRef?: RefObject<HTMLHeadingElement | null>;
  /** Enter in the field, or the submit button. */
  readonly onSubmit: () => void;
  /** The step's one field; a mistake is shown under it and linked to it. */
  readonly field: FieldProps;
  /** What the person typed as their username or e-mail: mistakes are worded for the one it is. */
  readonly emailOrUsername: string;
  readonly failure: StepFailure | null;
  /** Text between the heading and the field. */
  readonly intro?: ReactNode;
  /** The label of the step's one primary action, under the field. */
  readonly submitLabel: string;
  /** The submitted value is being sent. */
  readonly submitting: boolean;
  readonly submitRef?: RefObject<HTMLButtonElement | null>;
  /** Other ways to go on (another method), under an "or" divider. */
  readonly alternatives?: ReactNode;
  /** Going back, at the bottom. */
  readonly footer?: ReactNode;
}

/** The form of an auth step that asks for one value (start, password, code). */
export function StepForm({
  heading,
  headingRef,
  onSubmit,
  field,
  emailOrUsername,
  failure,
  intro,
  submitLabel,
  submitting,
  submitRef,
  alternatives,
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
      <StepHeading id={headingId} ref={headingRef}>
        {heading}
      </StepHeading>
      {intro}
      <TextField
        {...field}
        error={failure?.kind === "mistake" ? mistakeMessage(t, failure.mistake, emailOrUsername) : null}
      />
      {failure?.kind === "other" && <Alert message={errorMessage(t, failure.code)} />}
      <Button type="submit" size="large" className="w-full" ref={submitRef} busy={submitting}>
        {submitLabel}
      </Button>
      {alternatives && (
        <>
          <OrDivider />
          <div className="flex flex-col gap-3">{alternatives}</div>
        </>
      )}
      {footer && <StepFooter>{footer}</StepFooter>}
    </form>
  );
}

/** Separates a step's primary action from the other ways to go on. */
export function OrDivider() {
  const { t } = useTranslation();
  return (
    <div className="flex items-center gap-3 text-sm text-slate-600 dark:text-slate-400">
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      {t("authFlow.or")}
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
    </div>
  );
}

/** Discreet links at the bottom of a step: back, decline. */
export function StepFooter({ children }: { readonly children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2 border-t border-slate-200 pt-4 text-sm dark:border-slate-700">
      {children}
    </div>
  );
}
