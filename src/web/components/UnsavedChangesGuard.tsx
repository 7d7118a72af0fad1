import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useBlocker } from "react-router";
import { ConfirmDialog } from "./ConfirmDialog.tsx";

/**
 * While `dirty`, leaving the page asks first: a link inside the app opens a dialog, and closing or
 * reloading the tab gets the browser's own question.
 */
export function UnsavedChangesGuard({ dirty }: { readonly dirty: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  return (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      title={t("common.unsaved.title")}
      confirmLabel={t("common.unsaved.leave")}
      destructive
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      <p>{t("common.unsaved.message")}</p>
    </ConfirmDialog>
  );
}
