import { useId, useRef, type ReactNode } from "react";
import { AlertIcon, CheckIcon, LinkOffIcon } from "../../components/icons.tsx";
import { StepHeading } from "./StepHeading.tsx";
import { useFocusOnMount } from "./useStepAction.ts";

const tones = {
  done: { icon: <CheckIcon />, badge: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300" },
  failed: { icon: <AlertIcon />, badge: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300" },
  gone: { icon: <LinkOffIcon />, badge: "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300" },
} as const;

interface FlowMessageProps {
  /** What kind of end it is: picks the icon above the heading. */
  readonly tone: keyof typeof tones;
  readonly heading: ReactNode;
  /** What happened and what the person can do, in plain words. */
  readonly children?: ReactNode;
  /** The way back: one primary action, then any other. */
  readonly actions: ReactNode;
}

/**
 * A flow that has ended or cannot go on (finished, failed, unknown): what happened and the way back.
 * Focus moves to the heading, so the message is read first.
 */
export function FlowMessage({ tone, heading, children, actions }: FlowMessageProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(headingRef);
  return (
    <section aria-labelledby={headingId} className="flex flex-col items-center gap-4 text-center">
      <span
        aria-hidden="true"
        className={`inline-flex size-12 items-center justify-center rounded-full ${tones[tone].badge}`}
      >
        {tones[tone].icon}
      </span>
      <StepHeading id={headingId} ref={headingRef}>
        {heading}
      </StepHeading>
      {children && <div className="flex flex-col gap-2 text-slate-700 dark:text-slate-300">{children}</div>}
      <div className="mt-2 flex w-full flex-col gap-3">{actions}</div>
    </section>
  );
}
