import { useId } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { CopyButton } from "../../components/CopyButton.tsx";

/** A client secret right after it was made: shown once, to copy. */
export function SecretField({ clientId, secret }: { readonly clientId: string; readonly secret: string }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex flex-col gap-2 rounded-md border border-amber-400 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950">
      <label htmlFor={id} className="font-medium break-words">
        {t("organizations.apps.secret", { clientId })}
      </label>
      <p id={`${id}-warning`} className="text-sm text-amber-900 dark:text-amber-100">
        {t("organizations.apps.secretWarning")}
      </p>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <input
          id={id}
          readOnly
          aria-describedby={`${id}-warning`}
          value={secret}
          onFocus={(event) => event.target.select()}
          className="min-w-0 flex-1 basis-64 rounded-md border border-slate-400 bg-white px-3 py-2 font-mono text-slate-900 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100"
        />
        <CopyButton value={secret} label={t("organizations.apps.copySecret")} />
      </div>
    </div>
  );
}
