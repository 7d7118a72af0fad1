import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type ComponentType } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "../i18n/index.ts";
import { Link, NavLink, useLocation, useNavigate } from "react-router";
import type { z } from "zod/mini";
import { signOutResponseSchema, type signOutBodySchema } from "../../common/api/flow.ts";
import { apiPath, pathFor, type RouteName } from "../../common/routes.ts";
import { ApiError, contextQuery, postJson } from "../api.ts";
import { forgetSilentSignIn } from "../auth.ts";
import { setSignInError, signOutLocally, useSignedIn, useSigningIn } from "../session.ts";
import {
  ActivityIcon,
  CloseIcon,
  HomeIcon,
  IdentityIcon,
  MenuIcon,
  OrganizationIcon,
  TemplateIcon,
} from "./icons.tsx";
import { LanguageSwitch } from "./LanguageSwitch.tsx";
import { LogoMark } from "./LogoMark.tsx";
import { SignInButton } from "./SignInButton.tsx";
import { SkeletonBlock } from "./Skeleton.tsx";
import { useDisclosure } from "./useDisclosure.ts";
import { UserMenu } from "./UserMenu.tsx";

interface Section {
  readonly route: RouteName;
  readonly label: "home" | "identities" | "organizations" | "templates" | "activity";
  readonly icon: ComponentType<{ className?: string }>;
  /** Shown only to signed-in people: for others the page only asks them to sign in. */
  readonly ownData?: boolean;
}

const sections: readonly Section[] = [
  { route: "Home", label: "home", icon: HomeIcon },
  { route: "IdentityList", label: "identities", icon: IdentityIcon, ownData: true },
  { route: "OrganizationList", label: "organizations", icon: OrganizationIcon },
  { route: "ApplicationTemplateList", label: "templates", icon: TemplateIcon },
  { route: "ActivityList", label: "activity", icon: ActivityIcon, ownData: true },
];

/**
 * The console's header: the instance's name, links to its sections (the current one marked; behind a
 * menu button on narrow screens), the language switch, and the signed-in identity's menu or the
 * sign-in button.
 */
export function NavBar() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const signingIn = useSigningIn();
  const title = useQuery(contextQuery).data?.title ?? t("app.name");
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const signInButton = useRef<HTMLButtonElement>(null);
  const {
    open: menuOpen,
    buttonProps: menuButtonProps,
    panelRef: menuPanel,
  } = useDisclosure<HTMLDivElement>();
  const menuId = useId();

  /**
   * Signs out on the server (the token is revoked and the single sign-on session ends, so a reload does
   * not sign in again), then forgets the token and everything loaded with it.
   */
  async function signOut(): Promise<void> {
    if (signingOut) return;
    setSigningOut(true);
    setSignInError(null);
    try {
      const body: z.infer<typeof signOutBodySchema> = { location: location.pathname + location.search };
      const answer = await postJson(apiPath("AuthSignout"), body, signOutResponseSchema);
      forgetSilentSignIn();
      // The identity's menu is gone once it worked: focus moves to the button that took its place.
      flushSync(signOutLocally);
      signInButton.current?.focus();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== contextQuery.queryKey[0] });
      await navigate(answer.location);
    } catch (error) {
      setSignInError(error instanceof ApiError ? error.code : "unexpected");
    } finally {
      setSigningOut(false);
    }
  }

  const shown = sections.filter((section) => signedIn || !section.ownData);

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
      <nav
        aria-label={t("nav.label")}
        className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2 sm:px-6 lg:px-8"
      >
        {/* For pointers only: the Home link below is the same for keyboards and screen readers. */}
        <Link
          to={pathFor("Home")}
          aria-hidden="true"
          tabIndex={-1}
          className="flex min-w-0 items-center gap-2 py-1 text-lg font-semibold text-slate-900 dark:text-slate-100"
        >
          <LogoMark />
          {/* On the narrowest phones the mark alone leaves room for the buttons. */}
          <span className="break-words max-[22.5rem]:hidden">{title}</span>
        </Link>

        <div
          ref={menuPanel}
          id={menuId}
          className={`${menuOpen ? "flex" : "hidden"} order-last basis-full flex-col gap-3 border-t border-slate-200 py-3 lg:order-none lg:flex lg:flex-1 lg:basis-auto lg:flex-row lg:items-center lg:justify-between lg:border-0 lg:py-0 dark:border-slate-700`}
        >
          <ul className="flex flex-col gap-1 lg:flex-row">
            {shown.map(({ route, label, icon: Icon }) => (
              <li key={route}>
                <NavLink
                  to={pathFor(route)}
                  end={route === "Home"}
                  className={({ isActive }) =>
                    `flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium ${
                      isActive
                        ? "bg-blue-50 text-blue-900 dark:bg-blue-950 dark:text-blue-100"
                        : "text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-slate-100"
                    }`
                  }
                >
                  <Icon className="size-5 lg:hidden" />
                  {t(`nav.sections.${label}`)}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="px-3 lg:px-0">
            <LanguageSwitch labelClassName="lg:sr-only" />
          </div>
        </div>

        <div className="ml-auto flex items-center gap-2 lg:ml-0">
          {/* While start-up signs in, neither the menu nor the button is true yet. */}
          {signingIn ? (
            <SkeletonBlock className="size-8 rounded-full" />
          ) : signedIn ? (
            <UserMenu signingOut={signingOut} onSignOut={() => void signOut()} />
          ) : (
            <SignInButton ref={signInButton} />
          )}
          <button
            type="button"
            {...menuButtonProps}
            aria-controls={menuId}
            className="rounded-md p-2 text-slate-800 hover:bg-slate-100 lg:hidden dark:text-slate-200 dark:hover:bg-slate-800"
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
            <span className="sr-only">{t("nav.menu")}</span>
          </button>
        </div>
      </nav>
    </header>
  );
}
