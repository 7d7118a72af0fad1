import type { TFunction } from "../../i18n/index.ts";
import type { Identity } from "../../../common/api/identity.ts";

/** The console's labels of an identity (spec §3): "current" for the signed-in one, "admin" where one may change it. */
export function identityLabels(t: TFunction, identity: Pick<Identity, "isCurrent" | "canUpdate">): string[] {
  return [
    ...(identity.isCurrent ? [t("identities.labels.current")] : []),
    ...(identity.canUpdate ? [t("identities.labels.admin")] : []),
  ];
}
