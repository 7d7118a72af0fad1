import { useEffect, useId, useRef, type ReactNode } from "react";
import { AlertIcon, CheckIcon, DoorIcon, LinkOffIcon } from "./icons.tsx";

const tones = {
  done: { icon: <CheckIcon />, badge: "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300" },
  failed: { icon: <AlertIcon />, badge: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300" },
  gone: { icon: <LinkOffIcon />, badge: "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300" },
  leaving: { icon: <DoorIcon />, badge: "bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300" },
} as const;

interface MessagePanelProps {
  /** What kind of end it is: picks the icon above the heading. */
  readonly tone: keyof typeof tones;
  readonly heading: ReactNode;
  /** 1 on a page of its own (an error page), 2 under a page's own heading (the flow's card). */
  readonly level?: 1 | 2;
  /** What happened and what the person can do, in plain words. */
  readonly children?: ReactNode;
  /** The way back: one primary action, then any other. */
  readonly actions: ReactNode;
}

/**
 * Something that ended or cannot go on (a finished or unknown flow, an error page): what happened
 * and the way back. Focus moves to the heading, so the message is read first.
 */
export function MessagePanel({ tone, heading, level = 2, children, actions }: MessagePanelProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <section aria-labelledby={headingId} className="flex flex-col items-center gap-4 text-center">
      <span
        aria-hidden="true"
        className={`inline-flex size-12 items-center justify-center rounded-full ${tones[tone].badge}`}
      >
        {tones[tone].icon}
      </span>
      <Heading
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className={`${level === 1 ? "text-2xl font-bold" : "text-xl font-semibold"} tracking-tight text-balance focus:outline-none`}
      >
        {heading}
      </Heading>
      {children && <div className="flex flex-col gap-2 text-slate-700 dark:text-slate-300">{children}</div>}
      <div className="mt-2 flex w-full flex-col gap-3">{actions}</div>
    </section>
  );
}
