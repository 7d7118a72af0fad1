import { useSyncExternalStore } from "react";
import { apiPath, apiPrefix, pathFor } from "../common/routes.ts";

/**
 * The console's sign-in state. The access token lives in memory only (never in storage), so a script
 * injected later cannot read it from storage; after a reload the console signs in again silently
 * through the single sign-on session (auth.ts).
 */
interface Session {
  readonly accessToken: string;
  /**
   * The account page's own token (its client signs in to the account, with no identity): it opens the
   * account's APIs only, and counts as signed in on the account page only.
   */
  readonly accountToken: string;
  /** Stable code of the last failed sign-in or sign-out, translated as `errors.<code>`. */
  readonly signInError: string | null;
  /** Start-up is completing a sign-in or trying a silent one: views wait, so they do not flash signed out. */
  readonly signingIn: boolean;
}

let session: Session = { accessToken: "", accountToken: "", signInError: null, signingIn: false };
const listeners = new Set<() => void>();

function update(change: Partial<Session>): void {
  session = { ...session, ...change };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whether a path is the account page's (its sign-ins use the account page's own client). */
export function isAccountPath(pathname: string): boolean {
  const page = pathFor("Account");
  return pathname === page || pathname.startsWith(`${page}/`);
}

/**
 * The token a request to this API path carries: the account page's for the account's APIs (the
 * console's when it has none), else the console's. Signing out revokes whichever the page holds.
 */
export function getAccessToken(path: string): string {
  if (isAccountPath(path.startsWith(`${apiPrefix}/`) ? path.slice(apiPrefix.length) : path))
    return session.accountToken || session.accessToken;
  if (path === apiPath("AuthSignout")) return session.accessToken || session.accountToken;
  return session.accessToken;
}

export function setAccessToken(accessToken: string): void {
  update({ accessToken, signInError: null });
}

export function setAccountToken(accountToken: string): void {
  update({ accountToken, signInError: null });
}

export function signOutLocally(): void {
  update({ accessToken: "", accountToken: "" });
}

export function setSignInError(code: string | null): void {
  update({ signInError: code });
}

export function setSigningIn(signingIn: boolean): void {
  update({ signingIn });
}

/**
 * Whether the page's person is signed in: to the console, or on the account page to the account.
 * Read as each view draws, so a move to another page reads it anew.
 */
export function useSignedIn(): boolean {
  return useSyncExternalStore(
    subscribe,
    () =>
      session.accessToken !== "" || (session.accountToken !== "" && isAccountPath(window.location.pathname)),
  );
}

/** Whether the console is signed in with an identity (what its identity's APIs need). */
export function useConsoleSignedIn(): boolean {
  return useSyncExternalStore(subscribe, () => session.accessToken !== "");
}

export function useSignInError(): string | null {
  return useSyncExternalStore(subscribe, () => session.signInError);
}

export function useSigningIn(): boolean {
  return useSyncExternalStore(subscribe, () => session.signingIn);
}
