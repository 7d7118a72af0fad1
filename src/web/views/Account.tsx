import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import type { Account as AccountData } from "../../common/api/account.ts";
import { PageHeader } from "../components/PageHeader.tsx";
import { Section } from "../components/Section.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { accountQuery } from "../partials/account/accountApi.ts";
import { EmailAddresses } from "../partials/account/EmailAddresses.tsx";
import { PasswordSection } from "../partials/account/PasswordSection.tsx";
import { Passkeys } from "../partials/account/Passkeys.tsx";
import { Providers } from "../partials/account/Providers.tsx";
import { SecondFactors } from "../partials/account/SecondFactors.tsx";
import { useSiteContext } from "../api.ts";
import { useSignedIn } from "../session.ts";

/**
 * The signed-in person's account (spec §2, Account): the ways they sign in, their passkeys, and their
 * second factors.
 */
export function Account() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const account = useQuery({ ...accountQuery, enabled: signedIn });
  useDocumentTitle(t("account.title"));

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <PageHeader title={t("account.title")} description={t("account.description")} />
      <SignedInContent signedOutMessage={t("account.signedOut")} query={account}>
        {(data) => <SignInMethods account={data} />}
      </SignedInContent>
    </div>
  );
}

function SignInMethods({ account }: { readonly account: AccountData }) {
  const { t } = useTranslation();
  const hasProviders = useSiteContext().providers.length > 0;
  return (
    <>
      <Section title={t("account.twoStep.title")}>
        <SecondFactors account={account} />
      </Section>
      <Section title={t("account.passkeys.title")}>
        <Passkeys passkeys={account.credentials.filter(({ provider }) => provider === "passkey")} />
      </Section>
      {hasProviders && (
        <Section title={t("account.providers.title")}>
          <Providers credentials={account.credentials} />
        </Section>
      )}
      <Section id="password" title={t("account.password.title")}>
        <PasswordSection credentials={account.credentials} />
      </Section>
      <Section id="emails" title={t("account.emails.title")}>
        <EmailAddresses account={account} />
      </Section>
    </>
  );
}
