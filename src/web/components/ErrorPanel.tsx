import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { CopyButton } from "./CopyButton.tsx";

const actionStyles = {
  primary: "bg-blue-700 text-white hover:bg-blue-800",
  secondary:
    "border border-slate-400 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700",
} as const;

/**
 * A way back from an error page, drawn as a button: `to` a page of this site (the router takes it
 * there; the error belongs to the address the server answered with, not to the next page), `href`
 * to an app elsewhere, or an action.
 */
export function ErrorAction({
  to,
  href,
  onClick,
  variant = "primary",
  children,
}: {
  readonly to?: string;
  readonly href?: string;
  readonly onClick?: () => void;
  readonly variant?: keyof typeof actionStyles;
  readonly children: ReactNode;
}) {
  const className = `inline-flex items-center justify-center rounded-md px-4 py-2 text-center text-sm font-medium ${actionStyles[variant]}`;
  if (to !== undefined)
    return (
      <Link to={to} className={className}>
        {children}
      </Link>
    );
  if (href !== undefined)
    return (
      <a href={href} className={className}>
        {children}
      </a>
    );
  return (
    <button type="button" onClick={onClick} className={className}>
      {children}
    </button>
  );
}

/** Decorative: the heading says what happened. */
function WarningBadge() {
  return (
    <span className="flex size-11 items-center justify-center rounded-full bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300">
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      >
        <circle cx="12" cy="12" r="9" />
        <path d="M12 7.5v5.5M12 16.5v.01" />
      </svg>
    </span>
  );
}

interface ErrorPanelProps {
  readonly title: string;
  readonly message: string;
  /** The ID the server's log names a failed request by, for whoever asks the administrators. */
  readonly requestId?: string | undefined;
  /** A technical detail for the app's developers, such as the OAuth error code. */
  readonly detail?: string | undefined;
  /** The ways back ({@link ErrorAction}s). */
  readonly children: ReactNode;
}

/** What happened, in plain words, and the ways back: the body of every error page. */
export function ErrorPanel({ title, message, requestId, detail, children }: ErrorPanelProps) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-3">
        <WarningBadge />
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="text-slate-700 dark:text-slate-300">{message}</p>
      </header>
      {requestId !== undefined && (
        <div className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-800">
          <p className="text-sm font-medium">{t("errorPages.requestId")}</p>
          <code className="font-mono text-sm break-all">{requestId}</code>
          <p className="text-sm text-slate-700 dark:text-slate-300">{t("errorPages.requestIdHint")}</p>
          <CopyButton value={requestId} label={t("errorPages.copyRequestId")} />
        </div>
      )}
      <div className="flex flex-wrap gap-3">{children}</div>
      {detail !== undefined && (
        <p className="font-mono text-xs break-words text-slate-600 dark:text-slate-400">{detail}</p>
      )}
    </div>
  );
}
