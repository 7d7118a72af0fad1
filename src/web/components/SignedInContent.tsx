import type { ReactNode } from "react";
import { useSignedIn } from "../session.ts";
import { QueryError } from "./QueryError.tsx";
import { SignInPrompt } from "./SignInPrompt.tsx";
import { TextSkeleton } from "./Skeleton.tsx";

interface SignedInContentProps<T> {
  /** What a signed-out visitor is told, next to the sign-in button. */
  readonly signedOutMessage: string;
  /** The data of a query that runs only when signed in. */
  readonly query: { readonly data: T | undefined; readonly isError: boolean; readonly error: unknown };
  readonly children: (data: T) => ReactNode;
}

/** A console page's content: for the signed-in person once loaded, else why there is none. */
export function SignedInContent<T>({ signedOutMessage, query, children }: SignedInContentProps<T>) {
  const signedIn = useSignedIn();
  if (!signedIn) return <SignInPrompt message={signedOutMessage} />;
  // Data loaded before keeps showing when loading it again (or more of it) fails.
  if (query.data !== undefined) return children(query.data);
  if (query.isError) return <QueryError error={query.error} />;
  return <TextSkeleton />;
}
