import type { Secrets } from "./useOrganizationSave.tsx";

// Secrets made by a step that then opens the app's page, which shows them once. They stay in this
// page's memory only: never in the address, the history or the browser's storage.

const handedOver = new Map<string, Secrets>();

/** Gives the app's page the secrets just made for its clients. */
export function handOverSecrets(applicationId: string, secrets: Secrets): void {
  handedOver.set(applicationId, secrets);
}

/** The secrets handed over to the app's page, if any; the page forgets them once shown. */
export const handedOverSecrets = (applicationId: string): Secrets => handedOver.get(applicationId) ?? {};

/** Once shown, a secret is not handed over again. */
export function forgetHandedOverSecrets(applicationId: string): void {
  handedOver.delete(applicationId);
}
