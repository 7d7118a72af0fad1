import { useSyncExternalStore } from "react";

/**
 * The console's sign-in state. The access token lives in memory only (never in storage), so a script
 * injected later cannot read it from storage; after a reload the console signs in again silently
 * through the single sign-on session (auth.ts).
 */
interface Session {
  readonly accessToken: string;
  /** Stable code of the last failed sign-in or sign-out, translated as `errors.<code>`. */
  readonly signInError: string | null;
  /** Start-up is completing a sign-in or trying a silent one: views wait, so they do not flash signed out. */
  readonly signingIn: boolean;
}

let session: Session = { accessToken: "", signInError: null, signingIn: false };
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

export function getAccessToken(): string {
  return session.accessToken;
}

export function setAccessToken(accessToken: string): void {
  update({ accessToken, signInError: null });
}

export function signOutLocally(): void {
  update({ accessToken: "" });
}

export function setSignInError(code: string | null): void {
  update({ signInError: code });
}

export function setSigningIn(signingIn: boolean): void {
  update({ signingIn });
}

export function useSignedIn(): boolean {
  return useSyncExternalStore(subscribe, () => session.accessToken !== "");
}

export function useSignInError(): string | null {
  return useSyncExternalStore(subscribe, () => session.signInError);
}

export function useSigningIn(): boolean {
  return useSyncExternalStore(subscribe, () => session.signingIn);
}
