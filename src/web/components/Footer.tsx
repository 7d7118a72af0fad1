import { Trans } from "../i18n/Trans.tsx";
import { Link } from "react-router";
import { pathFor } from "../../common/routes.ts";

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <p className="mx-auto max-w-5xl px-4 py-6 text-sm text-slate-700 sm:px-6 dark:text-slate-300">
        <Trans
          i18nKey="footer.poweredBy"
          components={{
            about: (
              <Link
                to={pathFor("About")}
                className="font-medium text-blue-800 underline underline-offset-4 dark:text-blue-300"
              />
            ),
          }}
        />
      </p>
    </footer>
  );
}
