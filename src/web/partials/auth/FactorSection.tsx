import { useId, useRef, type ReactNode } from "react";
import { StepHeading } from "./StepHeading.tsx";
import { useFocusOnMount } from "./useStepAction.ts";

interface FactorSectionProps {
  readonly heading: string;
  /** Why the step asks, and what to do. */
  readonly intro: ReactNode;
  /** The ways to go on, one under another. */
  readonly children: ReactNode;
}

/** A second-factor step without a field: the person starts at its heading and picks an action. */
export function FactorSection({ heading, intro, children }: FactorSectionProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(headingRef);
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <StepHeading id={headingId} ref={headingRef}>
          {heading}
        </StepHeading>
        {intro}
      </div>
      <div className="flex flex-col gap-3">{children}</div>
    </section>
  );
}
