import { Link } from "react-router";
import { pathFor } from "../../../common/routes.ts";
import { buttonClassName } from "../../components/Button.tsx";
import { PlusIcon } from "../../components/icons.tsx";
import { useTranslation } from "../../i18n/index.ts";

const steps = ["kind", "details", "configure"] as const;

/** For a signed-in person without an organization yet: what connecting the first app takes, and the way there. */
export function FirstAppCard() {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby="home-first-app"
      className="flex flex-col gap-5 rounded-2xl border-2 border-blue-200 bg-white px-6 py-7 shadow-sm sm:px-10 dark:border-blue-800 dark:bg-slate-900"
    >
      <div className="flex flex-col gap-2">
        <h2 id="home-first-app" className="text-2xl font-semibold tracking-tight">
          {t("home.firstApp.title")}
        </h2>
        <p className="max-w-prose text-slate-700 dark:text-slate-300">{t("home.firstApp.text")}</p>
      </div>
      <ol className="grid gap-3 sm:grid-cols-3">
        {steps.map((step, index) => (
          <li
            key={step}
            className="flex items-center gap-3 rounded-lg bg-slate-50 px-4 py-3 ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700"
          >
            <span
              aria-hidden="true"
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-blue-700 text-sm font-semibold text-white dark:bg-blue-600"
            >
              {index + 1}
            </span>
            <span className="text-slate-800 dark:text-slate-200">{t(`home.firstApp.steps.${step}`)}</span>
          </li>
        ))}
      </ol>
      <Link to={pathFor("ConnectApp")} className={`${buttonClassName({ size: "large" })} self-start`}>
        {t("home.firstApp.start")}
      </Link>
    </section>
  );
}

/** For a signed-in person who has apps already: the way to connect another. */
export function ConnectAppLink() {
  const { t } = useTranslation();
  return (
    <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-2">
      <Link to={pathFor("ConnectApp")} className={buttonClassName({ variant: "secondary" })}>
        <PlusIcon />
        {t("home.connectApp")}
      </Link>
      <span className="text-sm text-slate-700 dark:text-slate-300">{t("home.connectAppHint")}</span>
    </div>
  );
}
