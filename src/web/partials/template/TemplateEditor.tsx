import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../i18n/index.ts";
import type { Template } from "../../../common/api/template.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { AdminsSection } from "../../components/AdminsSection.tsx";
import { Button } from "../../components/Button.tsx";
import { TextAreaField, TextField } from "../../components/Field.tsx";
import { Section } from "../../components/Section.tsx";
import { useUnsavedChanges } from "../../components/UnsavedChangesGuard.tsx";
import { AppScopeRows } from "./AppScopeRows.tsx";
import { ClientList } from "./ClientList.tsx";
import { fieldErrorsOf, shownAt, type FieldError } from "./fieldErrors.ts";
import { useConfirmation } from "../organization/useConfirmation.tsx";
import {
  changedFrom,
  removedClients,
  templateDraftOf,
  templateEditOf,
  type TemplateDraft,
} from "./templateDraft.ts";
import { fieldsOf, templateQuery, updateTemplate } from "./templateApi.ts";
import { VariableRows } from "./VariableRows.tsx";

/** How the last save went. */
type Outcome =
  /** `followed`: how many organizations' apps follow the saved template. */
  | { readonly kind: "saved"; readonly followed: number }
  /** Someone else saved the template meanwhile (409). */
  | { readonly kind: "conflict" }
  | {
      readonly kind: "failed";
      /** Errors shown at their fields. */
      readonly fieldErrors: readonly FieldError[];
      /** Errors about no field the page shows. */
      readonly messages: readonly string[];
      /** Whether the first field with an error is still to get focus. */
      readonly focus: boolean;
    };

/** The form element named `name` (the first radio button of a group). */
function namedControl(form: HTMLFormElement | null, name: string): HTMLElement | null {
  const item = form?.elements.namedItem(name);
  const element = item instanceof RadioNodeList ? item[0] : item;
  return element instanceof HTMLElement ? element : null;
}

/**
 * The template's data for its admins: general fields, variables and clients in one form with one
 * save, and its admins in a section of their own. Unsaved changes are kept until saved, and leaving
 * the page with them asks first.
 */
export function TemplateEditor({ template }: { readonly template: Template }) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const confirmation = useConfirmation();
  /** The template as last loaded or saved here: the version the next save builds on. */
  const [saved, setSaved] = useState(template);
  const [draft, setDraft] = useState(() => templateDraftOf(template));
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const dirty = changedFrom(saved, draft);
  useUnsavedChanges(dirty);
  const errors = fieldErrorsOf(outcome?.kind === "failed" ? outcome.fieldErrors : []);

  // Once the fields with errors are on the page (a client's card opens for its error), the first
  // gets focus; an error about a field the page does not show is told in words instead.
  useEffect(() => {
    if (outcome?.kind !== "failed" || !outcome.focus) return;
    const shown = outcome.fieldErrors.filter((error) => namedControl(form.current, error.field) !== null);
    const first = shown[0];
    if (first) namedControl(form.current, first.field)?.focus();
    setOutcome({
      ...outcome,
      fieldErrors: shown,
      messages: [
        ...outcome.messages,
        ...outcome.fieldErrors.filter((error) => !shown.includes(error)).map((error) => error.message),
      ],
      focus: false,
    });
  }, [outcome]);

  function edit(next: TemplateDraft): void {
    setDraft(next);
    // The success message is about the saved state, which this edit leaves.
    if (outcome?.kind === "saved") setOutcome(null);
  }

  function adopt(template: Template): void {
    setSaved(template);
    setDraft(templateDraftOf(template));
  }

  /** Saves the draft; removing clients that organizations' apps have asks first (`confirmed` once asked). */
  async function save(confirmed = false): Promise<void> {
    if (busy) return;
    const { edit: fields, problems } = templateEditOf(draft);
    if (problems.length > 0) {
      const fieldErrors = problems.map((problem) => ({
        field: shownAt(problem.field),
        message:
          "error" in problem
            ? errorMessage(t, problem.error, problem.values)
            : t(`templates.problems.${problem.problem}`),
      }));
      setOutcome({ kind: "failed", fieldErrors, messages: [], focus: true });
      return;
    }
    const removed = removedClients(saved, draft);
    const using = saved.organizationsUsing ?? 0;
    if (!confirmed && removed.length > 0 && using > 0) {
      const names = removed.map(({ kind, description }) =>
        t("templates.removeClients.quoted", { name: description || t(`organizations.app.kinds.${kind}`) }),
      );
      confirmation.ask({
        title: t("templates.removeClients.title", {
          count: removed.length,
          names: new Intl.ListFormat(language, { type: "conjunction" }).format(names),
        }),
        message: t("templates.removeClients.message", { count: using }),
        confirmLabel: t("templates.removeClients.confirm"),
        destructive: true,
        onConfirm: () => void save(true),
      });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const updated = await updateTemplate(queryClient, saved.id, { ...fieldsOf(saved), ...fields });
      adopt(updated);
      setOutcome({ kind: "saved", followed: updated.organizationsUsing ?? 0 });
    } catch (caught) {
      const failure = caught instanceof ApiError ? caught : new ApiError("unexpected", 0);
      const message = errorMessage(t, failure.code, failure.values);
      if (failure.status === 409) setOutcome({ kind: "conflict" });
      else if (failure.field === undefined) {
        setOutcome({ kind: "failed", fieldErrors: [], messages: [message], focus: false });
      } else {
        const fieldErrors = [{ field: shownAt(failure.field), message }];
        setOutcome({ kind: "failed", fieldErrors, messages: [], focus: true });
      }
    } finally {
      setBusy(false);
    }
  }

  async function loadLatest(): Promise<void> {
    try {
      adopt(await queryClient.query({ ...templateQuery(saved.id), staleTime: 0 }));
      setOutcome(null);
    } catch {
      setOutcome({
        kind: "failed",
        fieldErrors: [],
        messages: [t("errors.loadingDataFailed")],
        focus: false,
      });
    }
  }

  return (
    <>
      <form
        ref={form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        // Fields that get focus stay clear of the save bar kept at the bottom of the window.
        className="flex flex-col gap-8 [&_:is(input,textarea,select)]:scroll-mb-48"
      >
        {/* Nothing changes while a save is under way, so that the saved template replaces no newer edit. */}
        <fieldset disabled={busy} className="flex min-w-0 flex-col gap-8">
          <Section title={t("templates.general.title")}>
            <TextField
              label={t("common.name")}
              name="name"
              required
              error={errors.at("name")}
              value={draft.name}
              onChange={(event) => edit({ ...draft, name: event.target.value })}
            />
            <TextAreaField
              label={t("common.description")}
              name="description"
              error={errors.at("description")}
              rows={3}
              value={draft.description}
              onChange={(event) => edit({ ...draft, description: event.target.value })}
            />
            <TextField
              label={t("templates.fields.homepage")}
              name="homepageTemplate"
              error={errors.at("homepageTemplate")}
              hint={t("templates.fields.homepageHint")}
              className="font-mono"
              value={draft.homepageTemplate}
              onChange={(event) => edit({ ...draft, homepageTemplate: event.target.value })}
            />
            <TextField
              label={t("templates.fields.idScopes")}
              name="idScopes"
              error={errors.at("idScopes")}
              hint={t("templates.spaceSeparated")}
              value={draft.idScopes}
              onChange={(event) => edit({ ...draft, idScopes: event.target.value })}
            />
          </Section>
          <Section title={t("templates.appScopes.title")}>
            <AppScopeRows
              scopes={draft.appScopes}
              errors={errors}
              onChange={(appScopes) => edit({ ...draft, appScopes })}
            />
          </Section>
          <Section title={t("templates.variables.title")}>
            <VariableRows
              variables={draft.variables}
              errors={errors}
              onChange={(variables) => edit({ ...draft, variables })}
            />
          </Section>
          <Section title={t("templates.clients.title")}>
            <ClientList
              clients={draft.clients}
              variables={draft.variables}
              errors={errors}
              onChange={(clients) => edit({ ...draft, clients })}
            />
          </Section>
        </fieldset>
        <SaveBar dirty={dirty} busy={busy} outcome={outcome} onLoadLatest={() => void loadLatest()} />
      </form>
      {confirmation.dialog}
      <AdminsSection
        admins={saved.admins}
        save={async (admins) => {
          const updated = await updateTemplate(queryClient, saved.id, { ...fieldsOf(saved), admins });
          setSaved(updated);
          return updated.admins;
        }}
      />
    </>
  );
}

/**
 * The form's save button, kept in view at the bottom of the window while the form is, with what
 * the last save did next to it.
 */
function SaveBar({
  dirty,
  busy,
  outcome,
  onLoadLatest,
}: {
  readonly dirty: boolean;
  readonly busy: boolean;
  readonly outcome: Outcome | null;
  readonly onLoadLatest: () => void;
}) {
  const { t } = useTranslation();
  const problems =
    outcome?.kind === "conflict"
      ? [t("templates.conflict")]
      : outcome?.kind === "failed"
        ? [...(outcome.fieldErrors.length > 0 ? [t("templates.save.fixFields")] : []), ...outcome.messages]
        : [];
  return (
    <div className="sticky bottom-4 z-10 rounded-lg border border-slate-300 bg-white px-4 py-3 shadow-lg dark:border-slate-600 dark:bg-slate-900">
      <div role="alert" className="flex flex-col gap-1 not-empty:mb-3">
        {problems.map((problem) => (
          <p key={problem} className="font-medium text-red-800 dark:text-red-300">
            {problem}
          </p>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Button type="submit" disabled={!dirty || busy} aria-busy={busy}>
          {busy ? t("templates.save.saving") : t("templates.save.button")}
        </Button>
        {outcome?.kind === "conflict" && (
          <Button variant="secondary" onClick={onLoadLatest}>
            {t("templates.save.reload")}
          </Button>
        )}
        <div>
          <p role="status" className="font-medium text-green-800 dark:text-green-300">
            {outcome?.kind === "saved"
              ? [
                  t("templates.save.saved"),
                  ...(outcome.followed > 0
                    ? [t("templates.save.followed", { count: outcome.followed })]
                    : []),
                ].join(" ")
              : ""}
          </p>
          {dirty && outcome === null && (
            <p className="text-slate-700 dark:text-slate-300">{t("templates.save.unsaved")}</p>
          )}
        </div>
      </div>
    </div>
  );
}
