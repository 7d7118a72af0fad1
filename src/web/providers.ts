import { useTranslation } from "./i18n/index.ts";
import type { Context } from "../common/api/context.ts";
import { useSiteContext } from "./api.ts";

export type SiteProvider = Context["providers"][number];

/** A third-party provider's name in the language the page is shown in. */
export function providerName(provider: SiteProvider, language: string): string {
  return language.startsWith("sl") ? provider.name.sl : provider.name.en;
}

/** The configured third-party providers, each with its name in the page's language. */
export function useProviders(): { key: string; type: SiteProvider["type"]; name: string }[] {
  const { language } = useTranslation();
  return useSiteContext().providers.map((provider) => ({
    key: provider.key,
    type: provider.type,
    name: providerName(provider, language),
  }));
}

/** A provider's name in the page's language, by its key; the key itself if the context lacks it. */
export function useProviderLabel(): (key: string) => string {
  const providers = useProviders();
  return (key) => providers.find((provider) => provider.key === key)?.name ?? key;
}
