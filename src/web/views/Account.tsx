import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation, type TFunction } from "../i18n/index.ts";
import type { Account as AccountData } from "../../common/api/account.ts";
import { pathFor } from "../../common/routes.ts";
import { buttonClassName } from "../components/Button.tsx";
import { ChevronRightIcon } from "../components/icons.tsx";
import { PageHeader } from "../components/PageHeader.tsx";
import { Section } from "../components/Section.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { accountQuery } from "../partials/account/accountApi.ts";
import { ConnectedApps } from "../partials/account/ConnectedApps.tsx";
import { EmailAddresses } from "../partials/account/EmailAddresses.tsx";
import { PasswordSection } from "../partials/account/PasswordSection.tsx";
import { Passkeys } from "../partials/account/Passkeys.tsx";
import { Providers } from "../partials/account/Providers.tsx";
import { SecondFactors } from "../partials/account/SecondFactors.tsx";
import { SecurityActivity } from "../partials/account/SecurityActivity.tsx";
import { YourData } from "../partials/account/YourData.tsx";
import { Sessions } from "../partials/account/Sessions.tsx";
import { DeleteAccount } from "../partials/account/DeleteAccount.tsx";
import { useSiteContext } from "../api.ts";
import { useSignedIn } from "../session.ts";

/** The groups the account page's sections are in, in the order the navigation shows them. */
const groups = ["security", "devices", "data"] as const;
type Group = (typeof groups)[number];

/** What every section is drawn with: the account's data, and the site's. */
interface SectionProps {
  readonly account: AccountData;
  readonly hasProviders: boolean;
}

/** One part of the account page: its anchor, its group, its title, and what it shows. */
interface AccountSection {
  /** The anchor the navigation links to (`/account#passkeys`). */
  readonly id: string;
  readonly group: Group;
  readonly title: (t: TFunction) => string;
  readonly content: (props: SectionProps) => ReactNode;
  /** Whether it has something to show here (providers only where some are configured). */
  readonly shown?: (props: SectionProps) => boolean;
}

/**
 * The account page's sections, in page order. Each part of the page adds its entry in its place:
 * the navigation and the page are both made from this list.
 */
const sections: readonly AccountSection[] = [
  // Sign-in & security
  {
    id: "password",
    group: "security",
    title: (t) => t("account.password.title"),
    content: ({ account }) => <PasswordSection credentials={account.credentials} />,
  },
  {
    id: "emails",
    group: "security",
    title: (t) => t("account.emails.title"),
    content: ({ account }) => <EmailAddresses account={account} />,
  },
  {
    id: "two-step",
    group: "security",
    title: (t) => t("account.twoStep.title"),
    content: ({ account }) => <SecondFactors account={account} />,
  },
  {
    id: "passkeys",
    group: "security",
    title: (t) => t("account.passkeys.title"),
    content: ({ account }) => (
      <Passkeys passkeys={account.credentials.filter(({ provider }) => provider === "passkey")} />
    ),
  },
  {
    id: "providers",
    group: "security",
    title: (t) => t("account.providers.title"),
    content: ({ account }) => <Providers credentials={account.credentials} />,
    shown: ({ hasProviders }) => hasProviders,
  },
  // Devices & apps
  {
    id: "sessions",
    group: "devices",
    title: (t) => t("account.sessions.title"),
    content: () => <Sessions />,
  },
  {
    id: "apps",
    group: "devices",
    title: (t) => t("account.apps.title"),
    content: () => <ConnectedApps />,
  },
  // Your data
  {
    id: "activity",
    group: "data",
    title: (t) => t("account.security.title"),
    content: () => <SecurityActivity />,
  },
  {
    id: "data",
    group: "data",
    title: (t) => t("account.data.title"),
    content: () => <YourData />,
  },
  {
    id: "delete",
    group: "data",
    title: (t) => t("account.deletion.title"),
    content: () => <DeleteAccount />,
  },
];

/**
 * The signed-in person's account (spec §2, Account): how they sign in, their devices and apps, and
 * their data. It is the person's, not an identity's: it signs in with the account page's own client
 * and asks for no identity. A side navigation on wide screens, a row of links on phones.
 */
export function Account() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const account = useQuery({ ...accountQuery, enabled: signedIn });
  useDocumentTitle(t("account.title"));

  return (
    <div className="flex flex-col gap-8">
      <PageHeader
        title={t("account.title")}
        description={t("account.description")}
        action={
          signedIn && (
            <Link to={pathFor("Home")} className={buttonClassName({ variant: "secondary" })}>
              {t("account.toConsole")}
              <ChevronRightIcon />
            </Link>
          )
        }
      />
      <SignedInContent signedOutMessage={t("account.signedOut")} query={account}>
        {(data) => <AccountSections account={data} />}
      </SignedInContent>
    </div>
  );
}

function AccountSections({ account }: { readonly account: AccountData }) {
  const { t } = useTranslation();
  const props: SectionProps = { account, hasProviders: useSiteContext().providers.length > 0 };
  const shown = sections.filter((section) => section.shown?.(props) ?? true);
  const grouped = groups.flatMap((group) => {
    const inGroup = shown.filter((section) => section.group === group);
    return inGroup.length === 0 ? [] : [{ group, inGroup }];
  });
  const current = useCurrentSection(shown.map(({ id }) => id));
  const navLabelId = useId();

  return (
    <div className="flex flex-col gap-6 lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:items-start lg:gap-10">
      <nav
        aria-labelledby={navLabelId}
        className="sticky top-16 z-10 -mx-4 border-b border-slate-200 bg-white/95 px-4 py-2 backdrop-blur sm:-mx-6 sm:px-6 lg:top-24 lg:mx-0 lg:border-0 lg:bg-transparent lg:p-0 lg:backdrop-blur-none dark:border-slate-800 dark:bg-slate-950/95 lg:dark:bg-transparent"
      >
        <h2 id={navLabelId} className="sr-only">
          {t("account.sectionsLabel")}
        </h2>
        <ol className="flex gap-2 overflow-x-auto lg:flex-col lg:gap-6 lg:overflow-visible">
          {grouped.map(({ group, inGroup }) => (
            <li key={group} className="flex shrink-0 gap-2 lg:flex-col lg:gap-1">
              <p className="hidden px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase lg:block dark:text-slate-400">
                {t(`account.groups.${group}`)}
              </p>
              <ul className="flex gap-2 lg:flex-col lg:gap-0.5">
                {inGroup.map((section) => (
                  <li key={section.id} className="shrink-0">
                    <a
                      href={`#${section.id}`}
                      aria-current={current === section.id ? "location" : undefined}
                      className="block rounded-full border border-slate-200 px-3 py-1.5 text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100 hover:text-slate-900 aria-[current]:border-blue-200 aria-[current]:bg-blue-50 aria-[current]:text-blue-900 lg:rounded-md lg:border-0 lg:py-2 lg:whitespace-normal dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-slate-100 dark:aria-[current]:border-blue-900 dark:aria-[current]:bg-blue-950 dark:aria-[current]:text-blue-100"
                    >
                      {section.title(t)}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </nav>
      <div className="flex min-w-0 flex-col gap-10">
        {grouped.map(({ group, inGroup }) => (
          <div key={group} className="flex flex-col gap-4">
            <p className="text-sm font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
              {t(`account.groups.${group}`)}
            </p>
            {inGroup.map((section) => (
              <Section key={section.id} id={section.id} title={section.title(t)} look="card">
                {section.content(props)}
              </Section>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}

/** The section being read: the last one whose top has passed the upper third of the window. */
function useCurrentSection(ids: readonly string[]): string | undefined {
  const [current, setCurrent] = useState<string | undefined>(ids[0]);
  const key = ids.join(" ");
  useEffect(() => {
    const elements = key
      .split(" ")
      .map((id) => document.getElementById(id))
      .filter((element) => element !== null);
    const update = () => {
      const line = window.innerHeight / 3;
      const passed = elements.filter((element) => element.getBoundingClientRect().top <= line);
      // At the very bottom the last sections may never reach the line: the last one is read then.
      const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      setCurrent((atBottom ? elements.at(-1) : passed.at(-1))?.id ?? elements[0]?.id);
    };
    update();
    window.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    return () => {
      window.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
    };
  }, [key]);
  return current;
}
