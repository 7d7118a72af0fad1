import { useEffect, useId, useSyncExternalStore } from "react";
import { useTranslation } from "../i18n/index.ts";
import { useBlocker } from "react-router";
import { ConfirmDialog } from "./ConfirmDialog.tsx";

// The forms of the page that hold unsaved changes. A router allows one blocker at a time, so forms
// only report here and one guard in the layout asks before the page is left.
const unsavedForms = new Set<string>();
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const anyUnsaved = () => unsavedForms.size > 0;

/** Reports whether the calling form holds changes that leaving the page would lose. */
export function useUnsavedChanges(dirty: boolean): void {
  const form = useId();
  useEffect(() => {
    if (!dirty) return;
    unsavedForms.add(form);
    listeners.forEach((listener) => listener());
    return () => {
      unsavedForms.delete(form);
      listeners.forEach((listener) => listener());
    };
  }, [dirty, form]);
}

/**
 * While a form of the page holds unsaved changes, leaving the page asks first: a link inside the app
 * opens a dialog, and closing or reloading the tab gets the browser's own question.
 */
export function UnsavedChangesGuard() {
  const { t } = useTranslation();
  const dirty = useSyncExternalStore(subscribe, anyUnsaved);
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
