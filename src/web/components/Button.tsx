import type { ComponentPropsWithRef } from "react";

const variants = {
  primary: "px-4 py-2 text-sm bg-blue-700 text-white hover:bg-blue-800",
  secondary: "px-4 py-2 text-sm border border-slate-400 bg-white text-slate-900 hover:bg-slate-100",
  danger: "px-4 py-2 text-sm bg-red-700 text-white hover:bg-red-800",
  /** Looks like a link, in the size of the text around it. */
  link: "text-blue-800 underline underline-offset-4 hover:text-blue-900",
} as const;

interface ButtonProps extends ComponentPropsWithRef<"button"> {
  readonly variant?: keyof typeof variants;
}

export function Button({ variant = "primary", type = "button", className = "", ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={`rounded-md font-medium disabled:cursor-not-allowed disabled:opacity-60 ${variants[variant]} ${className}`}
      {...props}
    />
  );
}
