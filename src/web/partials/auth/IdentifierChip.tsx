import { useTranslation } from "../../i18n/index.ts";
import { Avatar } from "../../components/Avatar.tsx";

interface IdentifierChipProps {
  readonly emailOrUsername: string;
  /** Back to the start step to type another one. */
  readonly onChange: () => void;
}

/** Who is signing in, as sign-in pages show it: the username or e-mail address, pressed to change it. */
export function IdentifierChip({ emailOrUsername, onChange }: IdentifierChipProps) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-start gap-1.5">
      <p className="text-sm text-slate-600 dark:text-slate-400">{t("authFlow.password.as")}</p>
      <button
        type="button"
        onClick={onChange}
        className="inline-flex max-w-full items-center gap-2 rounded-full border border-slate-300 py-1 ps-1 pe-3 text-start hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
      >
        <Avatar name={emailOrUsername} size="small" />
        <span className="min-w-0 font-medium break-words">{emailOrUsername}</span>{" "}
        <span className="shrink-0 text-sm text-blue-800 underline underline-offset-4 dark:text-blue-300">
          {t("authFlow.password.change")}
        </span>
      </button>
    </div>
  );
}
