import { useTranslation } from "../../i18n/index.ts";
import type { Credential } from "../../../common/api/account.ts";
import { CardItem, CardList } from "../../components/Cards.tsx";
import { useRelativeTime } from "../activity/relativeTime.ts";

const shown = ["username", "email", "password"];

/** The account's ways to sign in other than passkeys, which the page cannot change yet. */
export function OtherMethods({ credentials }: { readonly credentials: readonly Credential[] }) {
  const { t } = useTranslation();
  const relativeTime = useRelativeTime();
  const others = credentials.filter(({ provider }) => shown.includes(provider));
  if (others.length === 0)
    return <p className="text-slate-700 dark:text-slate-300">{t("account.others.none")}</p>;

  const describe = (credential: Credential): [string, string, string] => {
    switch (credential.provider) {
      case "username":
        return [t("account.others.username"), credential.name, t("account.others.usernameHint")];
      case "email":
        return [t("account.others.email"), credential.name, t("account.others.emailHint")];
      default:
        return [
          t("account.others.password"),
          "",
          t("account.others.passwordHint", { time: relativeTime(credential.createdAt) }),
        ];
    }
  };

  return (
    <>
      <p className="text-slate-700 dark:text-slate-300">{t("account.others.hint")}</p>
      <CardList>
        {others.map((credential) => {
          const [kind, value, hint] = describe(credential);
          return (
            <CardItem key={credential.id}>
              <p className="font-semibold break-words">
                {kind}
                {value && <span className="font-normal">: {value}</span>}
              </p>
              <p className="text-sm text-slate-700 dark:text-slate-300">{hint}</p>
            </CardItem>
          );
        })}
      </CardList>
    </>
  );
}
