import type { ReactNode } from "react";
import { useTranslation } from "../i18n/index.ts";
import { Link } from "react-router";
import { buttonClassName } from "./Button.tsx";
import { CopyButton } from "./CopyButton.tsx";
import { MessagePanel } from "./MessagePanel.tsx";
import { Identifier } from "./Identifier.tsx";

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
  readonly variant?: "primary" | "secondary";
  readonly children: ReactNode;
}) {
  const className = `${buttonClassName({ variant, size: "large" })} w-full`;
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

interface ErrorPanelProps {
  readonly title: string;
  readonly message: string;
  /** `gone` for what does not exist, `failed` (the default) for what went wrong. */
  readonly tone?: "failed" | "gone";
  /** The ID the server's log names a failed request by, for whoever asks the administrators. */
  readonly requestId?: string | undefined;
  /** A technical detail for the app's developers, such as the OAuth error code. */
  readonly detail?: string | undefined;
  /** The ways back ({@link ErrorAction}s). */
  readonly children: ReactNode;
}

/** What happened, in plain words, and the ways back: the body of every error page. */
export function ErrorPanel({
  title,
  message,
  tone = "failed",
  requestId,
  detail,
  children,
}: ErrorPanelProps) {
  const { t } = useTranslation();
  return (
    <MessagePanel tone={tone} level={1} heading={title} actions={children}>
      <p>{message}</p>
      {requestId !== undefined && (
        <div className="mt-2 flex flex-col items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-800">
          <p className="text-sm font-medium">{t("errorPages.requestId")}</p>
          <code className="text-sm">
            <Identifier value={requestId} />
          </code>
          <p className="text-sm">{t("errorPages.requestIdHint")}</p>
          <CopyButton value={requestId} label={t("errorPages.copyRequestId")} />
        </div>
      )}
      {detail !== undefined && (
        <p className="font-mono text-xs break-words text-slate-600 dark:text-slate-400">{detail}</p>
      )}
    </MessagePanel>
  );
}
