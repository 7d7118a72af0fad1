import type { AppScope } from "../../common/api/app-scope.ts";
import {
  backendSettingDefaults,
  signInSettingDefaults,
  type BackendClient,
  type PublicClient,
} from "../../common/api/template.ts";

type LaterSetting = keyof typeof signInSettingDefaults | keyof typeof backendSettingDefaults;
/** A client as stored at any time: the settings added later may be missing. */
type StoredClient<C> = Omit<C, LaterSetting> & Partial<Pick<C, LaterSetting & keyof C>>;

interface StoredClients {
  clientsPublic: StoredClient<PublicClient>[];
  clientsBackend: StoredClient<BackendClient>[];
  /** Absent in templates stored before apps could define scopes. */
  appScopes?: AppScope[];
}

/**
 * A template, or the copy an organization keeps of one, as read from the store. Those saved before a
 * client setting existed lack it: it reads as its default, as they would have been saved since.
 */
export function withSettingDefaults<T extends StoredClients>(
  template: T,
): Omit<T, keyof StoredClients> & {
  clientsPublic: PublicClient[];
  clientsBackend: BackendClient[];
  appScopes: AppScope[];
} {
  return {
    ...template,
    appScopes: template.appScopes ?? [],
    clientsPublic: template.clientsPublic.map((client) => ({ ...signInSettingDefaults, ...client })),
    clientsBackend: template.clientsBackend.map((client) => ({
      ...signInSettingDefaults,
      ...backendSettingDefaults,
      ...client,
    })),
  };
}
