import type { ReactNode } from "react";
import { Link } from "react-router";
import { pathFor } from "../../../common/routes.ts";
import { Alert } from "../../components/Alert.tsx";
import { buttonClassName } from "../../components/Button.tsx";
import { Section } from "../../components/Section.tsx";
import { errorMessage } from "../../api.ts";
import { useFormatTimestamp } from "../../format.ts";
import { useTranslation } from "../../i18n/index.ts";
import type { TryApp, TryResult } from "../../trySignIn.ts";
import { ScopeList } from "./ClientSetUp.tsx";
import { TryButton } from "./TrySignInPanel.tsx";

/** Claims that are times, in seconds since 1970: shown as dates too. */
const timeClaims = new Set(["exp", "iat", "auth_time", "nbf", "updated_at"]);

/**
 * What the app got when its sign-in was tried: the ID token's claims, the access token's scopes and
 * the userinfo answer; or why it failed. Then ways to try again, or back to the app.
 */
export function TrySignInResult({
  result,
  app,
}: {
  readonly result: TryResult | null;
  /** Known to the app's admins only: without it, no way to try again is offered. */
  readonly app: TryApp | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      {result === null ? (
        <p>{t("organizations.try.nothing")}</p>
      ) : "error" in result ? (
        <Alert message={errorMessage(t, result.error)} />
      ) : (
        <>
          <p role="status" className="font-medium text-green-800 dark:text-green-300">
            {t("organizations.try.signedIn")}
          </p>
          <Section title={t("organizations.try.idToken")}>
            <p className="text-sm text-slate-700 dark:text-slate-300">{t("organizations.try.idTokenHint")}</p>
            <ClaimTable claims={result.claims} label={t("organizations.try.idToken")} />
          </Section>
          <Section title={t("organizations.try.accessToken")}>
            <p className="text-sm text-slate-700 dark:text-slate-300">{t("organizations.try.scopesHint")}</p>
            <ScopeList scopes={result.scopes} label={t("organizations.try.scopes")} />
          </Section>
          <Section title={t("organizations.try.userinfo")}>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {t("organizations.try.userinfoHint")}
            </p>
            <ClaimTable claims={result.userinfo} label={t("organizations.try.userinfo")} />
          </Section>
        </>
      )}
      {app && <TryActions app={app} />}
    </>
  );
}

/** Trying again, with the same identity or another, or back to the app's page. */
function TryActions({ app }: { readonly app: TryApp }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-start gap-3 border-t border-slate-200 pt-6 dark:border-slate-700">
      <TryButton app={app} label={t("organizations.try.again")} />
      <TryButton
        app={app}
        anotherIdentity
        variant="secondary"
        label={t("organizations.try.anotherIdentity")}
      />
      <Link
        to={pathFor("OrganizationApp", { id: app.organizationId, appId: app.applicationId })}
        className={buttonClassName({ variant: "secondary" })}
      >
        {t("organizations.try.back")}
      </Link>
    </div>
  );
}

function ClaimTable({ claims, label }: { readonly claims: Record<string, unknown>; readonly label: string }) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 dark:border-slate-700">
      <table className="w-full text-left text-sm" aria-label={label}>
        <tbody>
          {Object.entries(claims).map(([name, value]) => (
            // On a phone the name stands above its value, which then has the whole width.
            <tr
              key={name}
              className="flex flex-col border-b border-slate-200 last:border-b-0 sm:table-row dark:border-slate-700"
            >
              <th
                scope="row"
                className="bg-slate-50 px-3 pt-2 align-top font-mono font-medium sm:w-1/3 sm:py-2 dark:bg-slate-900"
              >
                {name}
              </th>
              <td className="px-3 pt-1 pb-2 align-top font-mono wrap-anywhere sm:py-2">
                <ClaimValue name={name} value={value} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ClaimValue({ name, value }: { readonly name: string; readonly value: unknown }): ReactNode {
  const format = useFormatTimestamp();
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (!timeClaims.has(name) || typeof value !== "number") return text;
  const date = format(new Date(value * 1000).toISOString());
  return (
    <>
      {text} <span className="font-sans text-slate-600 dark:text-slate-400">({date})</span>
    </>
  );
}
