import { useTranslation } from "../../i18n/index.ts";
import { CopyableValue } from "./CopyableValue.tsx";

/**
 * Vrata serves a certificate of its own local CA: where the CA's file is, and how each kind of app is
 * made to trust it (an app that does not refuses to reach Vrata).
 */
export function LocalCaHint({ caFile }: { readonly caFile: string }) {
  const { t } = useTranslation();
  const ways: [string, string][] = [
    [t("organizations.app.localCa.node"), `NODE_EXTRA_CA_CERTS=${caFile} node app.js`],
    [t("organizations.app.localCa.python"), `REQUESTS_CA_BUNDLE=${caFile} SSL_CERT_FILE=${caFile} flask run`],
    [t("organizations.app.localCa.curl"), `curl --cacert ${caFile} …`],
  ];
  return (
    <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <h3 className="font-semibold">{t("organizations.app.localCa.title")}</h3>
      <p className="text-sm">{t("organizations.app.localCa.hint")}</p>
      <CopyableValue value={caFile} copyLabel={t("organizations.app.localCa.copy")} />
      <dl className="flex flex-col gap-2 text-sm">
        {ways.map(([label, command]) => (
          <div key={label} className="flex flex-col gap-0.5">
            <dt className="font-medium">{label}</dt>
            <dd>
              <code className="font-mono wrap-anywhere">{command}</code>
            </dd>
          </div>
        ))}
        <div className="flex flex-col gap-0.5">
          <dt className="font-medium">{t("organizations.app.localCa.browser")}</dt>
          <dd>{t("organizations.app.localCa.browserHint")}</dd>
        </div>
      </dl>
    </div>
  );
}
