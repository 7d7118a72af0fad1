import type { ComponentPropsWithRef, MouseEvent } from "react";
import { Spinner } from "./Spinner.tsx";

/** An entry of a drop-down menu, a button or a link. */
export const menuItemClass =
  "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm font-medium text-slate-800 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800";

const variants = {
  primary: "shadow-sm bg-blue-700 text-white hover:bg-blue-800 dark:bg-blue-600 dark:hover:bg-blue-700",
  secondary:
    "shadow-sm border border-slate-400 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  danger: "shadow-sm bg-red-700 text-white hover:bg-red-800 dark:hover:bg-red-900",
  /** Looks like a link, in the size of the text around it. */
  link: "text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-200",
  menuItem: menuItemClass,
} as const;

const sizes = {
  medium: "px-4 py-2 text-sm",
  /** Easy to hit on a phone: the sign-in card's actions. */
  large: "px-5 py-3 text-base",
} as const;

interface ButtonLook {
  readonly variant?: keyof typeof variants;
  /** Ignored by the link variant, which takes the size of the text around it. */
  readonly size?: keyof typeof sizes;
}

/** The classes of a button, also for a link that leads where a button would (a way back to an app). */
export function buttonClassName({ variant = "primary", size = "medium" }: ButtonLook): string {
  const layout =
    variant === "link" || variant === "menuItem"
      ? ""
      : `inline-flex items-center justify-center gap-2 rounded-md ${sizes[size]}`;
  return `font-medium disabled:cursor-not-allowed disabled:opacity-60 aria-busy:cursor-progress aria-busy:opacity-80 ${layout} ${variants[variant]}`;
}

interface ButtonProps extends ButtonLook, ComponentPropsWithRef<"button"> {
  /** Its action is running: a spinner shows, and it cannot be pressed again until the action ends. */
  readonly busy?: boolean;
}

export function Button({
  variant = "primary",
  size = "medium",
  busy = false,
  type = "button",
  className = "",
  children,
  onClick,
  ...props
}: ButtonProps) {
  // Marked disabled rather than made so: a disabled button would drop the keyboard focus while busy.
  const ignoreWhileBusy = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) event.preventDefault();
    else onClick?.(event);
  };
  return (
    <button
      type={type}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      onClick={ignoreWhileBusy}
      className={`${buttonClassName({ variant, size })} ${className}`}
      {...props}
    >
      {busy && <Spinner />}
      {children}
    </button>
  );
}
