import { useTranslation } from "../i18n/index.ts";

interface AlertProps {
  readonly message: string;
  readonly onDismiss?: () => void;
}

export function Alert({ message, onDismiss }: AlertProps) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <p>{message}</p>
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          className="rounded-md px-2 py-1 text-sm font-medium underline underline-offset-4 hover:bg-red-100 dark:hover:bg-red-900"
        >
          {t("app.dismiss")}
        </button>
      )}
    </div>
  );
}
