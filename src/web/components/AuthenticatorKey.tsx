import { CopyButton } from "./CopyButton.tsx";

/** Groups of four characters read (and typed) far more easily than one long run. */
const groupedByFour = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/**
 * An authenticator app's key for people who cannot scan its QR code: shown in groups of four, with a
 * button that copies it whole.
 */
export function AuthenticatorKey({
  secret,
  label,
  copyLabel,
}: {
  readonly secret: string;
  readonly label: string;
  readonly copyLabel: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-slate-100 px-3 py-2 dark:bg-slate-800">
      <code
        aria-label={label}
        className="font-mono text-base tracking-wide text-slate-900 dark:text-slate-100"
      >
        {groupedByFour(secret)}
      </code>
      <CopyButton value={secret} label={copyLabel} />
    </div>
  );
}
