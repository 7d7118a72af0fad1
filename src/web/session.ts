import { useSyncExternalStore } from "react";

/**
 * The console's sign-in state. The access token lives in memory only (never in storage), so a reload
 * signs the person out of the console, and a script injected later cannot read it from storage.
 */
interface Session {
  readonly accessToken: string;
  /** Stable code of the last failed sign-in, translated as `errors.<code>`. */
  readonly signInError: string | null;
}

let session: Session = { accessToken: "", signInError: null };
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

export function useSignedIn(): boolean {
  return useSyncExternalStore(subscribe, () => session.accessToken !== "");
}

export function useSignInError(): string | null {
  return useSyncExternalStore(subscribe, () => session.signInError);
}
