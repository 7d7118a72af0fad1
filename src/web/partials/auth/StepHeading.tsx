import type { ReactNode, RefObject } from "react";

interface StepHeadingProps {
  readonly id?: string;
  /** Steps without a field to start at move focus to their heading. */
  readonly ref?: RefObject<HTMLHeadingElement | null>;
  readonly children: ReactNode;
}

export function StepHeading({ id, ref, children }: StepHeadingProps) {
  return (
    <h2
      id={id}
      ref={ref}
      tabIndex={ref ? -1 : undefined}
      className="text-xl font-semibold tracking-tight text-balance focus:outline-none"
    >
      {children}
    </h2>
  );
}
