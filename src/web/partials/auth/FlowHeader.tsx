import { useTranslation } from "../../i18n/index.ts";
import { Trans } from "../../i18n/Trans.tsx";
import { Avatar } from "../../components/Avatar.tsx";

interface FlowHeaderProps {
  readonly appName: string;
  readonly organizationName: string;
  /** The flow has ended: the app no longer asks anything, it is only named. */
  readonly ended: boolean;
  /** The person is signed in already: the app asks only which identity to use. */
  readonly signedIn: boolean;
}

/** The top of the sign-in card: which app of which organization asks the person to sign in or up. */
export function FlowHeader({ appName, organizationName, ended, signedIn }: FlowHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="flex flex-col items-center gap-3 text-center">
      <Avatar name={appName || organizationName} size="large" shape="square" />
      <h1 className="text-2xl font-bold tracking-tight break-words">{appName || t("authFlow.title")}</h1>
      <p className="text-balance text-slate-700 dark:text-slate-300">
        <Trans
          i18nKey={ended ? "authFlow.appOf" : signedIn ? "authFlow.asksIdentity" : "authFlow.asks"}
          values={{ organizationName }}
          components={{ strong: <strong className="font-semibold text-slate-900 dark:text-white" /> }}
        />
      </p>
    </header>
  );
}
