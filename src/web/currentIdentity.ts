import { useQuery } from "@tanstack/react-query";
import type { Identity } from "../common/api/identity.ts";
import { identitiesQuery } from "./partials/identity/identityApi.ts";
import { useConsoleSignedIn } from "./session.ts";

/**
 * The identities the signed-in person can use, loaded once for the whole console (the list marks the
 * one the console is signed in with); nothing is asked while signed out.
 */
export function useOwnIdentities(): readonly Identity[] | undefined {
  const signedIn = useConsoleSignedIn();
  return useQuery({ ...identitiesQuery, enabled: signedIn }).data;
}

/** The identity the console is signed in with, once known. */
export function useCurrentIdentity(): Identity | undefined {
  return useOwnIdentities()?.find((identity) => identity.isCurrent);
}

/**
 * Who an identity ID is, as far as the signed-in person may know: one of the identities their account
 * reaches, or undefined (an identity of somebody else, known to them by its ID only).
 */
export function useKnownIdentity(): (id: string) => Identity | undefined {
  const identities = useOwnIdentities() ?? [];
  return (id) => identities.find((identity) => identity.id === id);
}
