import { useTranslation } from "../../i18n/index.ts";
import { Trans } from "../../i18n/Trans.tsx";
import type { AppScope } from "../../../common/api/app-scope.ts";
import { scopeDescription, type PersonalDataScope } from "../../../common/scopes.ts";

const strong = { strong: <strong className="text-slate-900 dark:text-white" /> };

/**
 * What the app asks for, before the person chooses whom to present: the data of the identity chosen
 * it will receive, and the scopes of its own API, as its template describes them in the page's language.
 */
export function RequestedAccess({
  appName,
  personalData,
  scopes,
}: {
  readonly appName: string;
  readonly personalData: readonly PersonalDataScope[];
  readonly scopes: readonly AppScope[];
}) {
  const { t, language } = useTranslation();
  if (personalData.length === 0 && scopes.length === 0) return null;
  return (
    <div className="flex flex-col gap-3 rounded-md border border-slate-300 px-4 py-3 dark:border-slate-600">
      {personalData.length > 0 && (
        <div className="flex flex-col gap-1">
          <p className="text-slate-700 dark:text-slate-300">
            <Trans i18nKey="authFlow.identity.personalData" values={{ appName }} components={strong} />
          </p>
          <ul className="flex list-disc flex-col gap-1 ps-5">
            {personalData.map((scope) => (
              <li key={scope}>{t(`authFlow.identity.data.${scope}`)}</li>
            ))}
          </ul>
        </div>
      )}
      {scopes.length > 0 && (
        <div className="flex flex-col gap-1">
          <p className="text-slate-700 dark:text-slate-300">
            <Trans
              i18nKey={
                personalData.length > 0 ? "authFlow.identity.appScopes" : "authFlow.identity.appScopesOnly"
              }
              values={{ appName }}
              components={strong}
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
      )}
    </div>
  );
}
