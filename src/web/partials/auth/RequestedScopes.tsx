import { useTranslation } from "../../i18n/index.ts";
import { Trans } from "../../i18n/Trans.tsx";
import type { AppScope } from "../../../common/api/app-scope.ts";
import { scopeDescription } from "../../../common/scopes.ts";

/** The scopes of its own API the app asks for, as its template describes them in the page's language. */
export function RequestedScopes({
  appName,
  scopes,
}: {
  readonly appName: string;
  readonly scopes: readonly AppScope[];
}) {
  const { language } = useTranslation();
  if (scopes.length === 0) return null;
  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-300 px-4 py-3 dark:border-slate-600">
      <p className="text-slate-700 dark:text-slate-300">
        <Trans
          i18nKey="authFlow.identity.appScopes"
          values={{ appName }}
          components={{ strong: <strong className="text-slate-900 dark:text-white" /> }}
        />
      </p>
      <ul className="flex list-disc flex-col gap-1 ps-5">
        {scopes.map((scope) => (
          <li key={scope.name}>
            <span className="block">{scopeDescription(scope, language)}</span>
            {/* A long name wraps only where it does not fit on its own line. */}
            <span className="block font-mono text-sm break-words text-slate-600 dark:text-slate-400">
              {scope.name}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
