import { useId, useState, type KeyboardEvent } from "react";
import { CopyButton } from "../../components/CopyButton.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { secretVariable, snippetsFor, type SnippetValues } from "./snippets.ts";

/**
 * Copyable configuration of common libraries for one client, one library at a time behind tabs
 * (arrow keys move between them, as in any tab list).
 */
export function ClientSnippets(values: SnippetValues) {
  const { t } = useTranslation();
  const snippets = snippetsFor(values);
  const [chosen, setChosen] = useState(0);
  const baseId = useId();
  const snippet = snippets[chosen] ?? snippets[0];
  if (snippet === undefined) return null;
  const tabId = (index: number) => `${baseId}-tab-${index}`;

  const moveWithKeys = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    const next = (chosen + step + snippets.length) % snippets.length;
    setChosen(next);
    document.getElementById(tabId(next))?.focus();
  };

  return (
    <div className="flex flex-col gap-2">
      <h4 className="font-medium">{t("organizations.app.snippets.title")}</h4>
      <div
        role="tablist"
        aria-label={t("organizations.app.snippets.title")}
        className="flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-700"
      >
        {snippets.map((candidate, index) => (
          <button
            key={candidate.library}
            id={tabId(index)}
            type="button"
            role="tab"
            aria-selected={index === chosen}
            aria-controls={`${baseId}-panel`}
            tabIndex={index === chosen ? 0 : -1}
            onClick={() => setChosen(index)}
            onKeyDown={moveWithKeys}
            className={`-mb-px rounded-t-md border px-3 py-1.5 text-sm font-medium ${
              index === chosen
                ? "border-slate-200 border-b-white bg-white text-slate-900 dark:border-slate-700 dark:border-b-slate-950 dark:bg-slate-950 dark:text-slate-100"
                : "border-transparent text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
            }`}
          >
            {t(`organizations.app.snippets.libraries.${candidate.library}`)}
          </button>
        ))}
      </div>
      <div
        id={`${baseId}-panel`}
        role="tabpanel"
        aria-labelledby={tabId(chosen)}
        className="flex flex-col gap-2"
      >
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t(`organizations.app.snippets.hints.${snippet.hint}`)}
        </p>
        <pre
          tabIndex={0}
          className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-[13px] leading-relaxed text-slate-100 dark:ring-1 dark:ring-slate-700"
        >
          <code>{snippet.code}</code>
        </pre>
        <div className="flex flex-wrap items-center justify-between gap-2">
          {values.client.kind !== "public" ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {t("organizations.app.snippets.secret", { variable: secretVariable })}
            </p>
          ) : (
            <span />
          )}
          <CopyButton
            value={snippet.code}
            label={t("organizations.app.snippets.copy", {
              library: t(`organizations.app.snippets.libraries.${snippet.library}`),
            })}
          />
        </div>
      </div>
    </div>
  );
}
