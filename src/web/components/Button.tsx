import type { ComponentPropsWithRef } from "react";
import { Spinner } from "./Spinner.tsx";

const boxed = "inline-flex items-center justify-center gap-2 px-4 py-2 text-sm shadow-sm";

/** An entry of a drop-down menu, a button or a link. */
export const menuItemClass =
  "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm font-medium text-slate-800 hover:bg-slate-100";

const variants = {
  primary: `${boxed} bg-blue-700 text-white hover:bg-blue-800`,
  secondary: `${boxed} border border-slate-300 bg-white text-slate-900 hover:bg-slate-50`,
  danger: `${boxed} bg-red-700 text-white hover:bg-red-800`,
  /** Looks like a link, in the size of the text around it. */
  link: "text-blue-800 underline underline-offset-4 hover:text-blue-900",
  menuItem: menuItemClass,
} as const;

interface ButtonProps extends ComponentPropsWithRef<"button"> {
  readonly variant?: keyof typeof variants;
  /**
   * The work the button started is under way: it shows a spinner and does nothing when pressed. It
   * stays focusable (`aria-disabled`, not `disabled`), so keyboard users keep their place.
   */
  readonly busy?: boolean;
}

export function Button({
  variant = "primary",
  type = "button",
  className = "",
  busy = false,
  onClick,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      onClick={(event) => {
        // Also keeps a submit button from submitting its form again.
        if (busy) event.preventDefault();
        else onClick?.(event);
      }}
      className={`rounded-md font-medium disabled:cursor-not-allowed disabled:opacity-60 aria-busy:cursor-wait ${variants[variant]} ${className}`}
      {...props}
    >
      {busy && <Spinner />}
      {children}
    </button>
  );
}
