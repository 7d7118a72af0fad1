import type { TFunction } from "./i18n/index.ts";
import { useMemo } from "react";
import { useTranslation } from "./i18n/index.ts";
import type { Context } from "../common/api/context.ts";
import { useSiteContext } from "./api.ts";

// The built-in organization and its console application are stored with English names, which stay
// as they are (existing installs keep their data). The site's context tells their IDs, so wherever a
// person reads one of their names, it is shown in the person's language instead.

type BuiltInIds = Pick<Context, "organizationId" | "applicationId"> & {
  readonly account?: Pick<Context["account"], "applicationId">;
};

/** An organization's name as the reader sees it: the built-in one's in the reader's language. */
export function organizationName(t: TFunction, context: BuiltInIds, id: string, stored: string): string {
  return id === context.organizationId ? t("builtIn.organization") : stored;
}

/** An application's name as the reader sees it: the console's and the account page's in the reader's language. */
export function applicationName(t: TFunction, context: BuiltInIds, id: string, stored: string): string {
  if (id === context.applicationId) return t("builtIn.console");
  return id === context.account?.applicationId ? t("builtIn.account") : stored;
}

/** {@link organizationName} and {@link applicationName} for the current language and site. */
export function useBuiltInNames() {
  const { t } = useTranslation();
  const context = useSiteContext();
  return useMemo(
    () => ({
      organization: (id: string, stored: string) => organizationName(t, context, id, stored),
      application: (id: string, stored: string) => applicationName(t, context, id, stored),
    }),
    [t, context],
  );
}
