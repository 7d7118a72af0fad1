import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { contextQuery, retryUnlessRefused } from "./api.ts";
import {
  addressHasSignInCallback,
  completeSignIn,
  forgetSilentSignIn,
  isSilentRefusal,
  mayTrySilentSignIn,
  safePath,
  signInErrorCode,
  startSignIn,
  takeSignInCallback,
} from "./auth.ts";
import { consoleTexts } from "./i18n/console.ts";
import { pageTexts, startTexts } from "./i18n/index.ts";
import { loadedWithError } from "./pageError.ts";
import { createRouter } from "./router.tsx";
import { completeTrySignIn, takeTrySignInCallback } from "./trySignIn.ts";
import { setSignInError, setSigningIn } from "./session.ts";

// Before the router reads the address, so that it never sees the authorization response's query.
const hadSignInCallback = addressHasSignInCallback();
// An error page keeps its address: an app's refused authorization request has a `state` of the app's,
// which is no answer to the console's sign-in. "Try signing in" is answered on a page of its own, as
// the app's test client: taken first, so that the console's callback finds no query there.
const tryCallback = loadedWithError ? null : takeTrySignInCallback();
const signInCallback = loadedWithError ? null : takeSignInCallback();

startTexts([pageTexts, consoleTexts]);
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryUnlessRefused } } });
const router = createRouter();

if (signInCallback !== null) {
  const { silent = false, redirectPath } = signInCallback.entry;
  setSigningIn(true);
  queryClient
    .query(contextQuery)
    .then((context) => completeSignIn(context, signInCallback))
    .then(async (path) => {
      forgetSilentSignIn();
      await router.navigate(path, { replace: true });
    })
    .catch(async (error: unknown) => {
      // A silent attempt returns to where the person was; a refusal only means "not signed in".
      if (silent) await router.navigate(safePath(redirectPath), { replace: true });
      if (!(silent && isSilentRefusal(error))) setSignInError(signInErrorCode(error));
    })
    .finally(() => setSigningIn(false));
} else if (tryCallback !== null) {
  // The console's token lives in memory, so it signs in again without a page once the answer is taken.
  void completeTrySignIn(tryCallback).then(() => {
    if (mayTrySilentSignIn(window.location.pathname, false)) signInSilently();
  });
} else if (!loadedWithError && mayTrySilentSignIn(window.location.pathname, hadSignInCallback)) {
  // Not on an error page: the person should read it rather than be sent round a sign-in first.
  signInSilently();
}

/** The page is left at once unless the attempt cannot even start (then the person stays signed out). */
function signInSilently(): void {
  setSigningIn(true);
  // Where the person is when the page is left, which a click meanwhile may have changed.
  const currentPath = () => window.location.pathname + window.location.search;
  queryClient
    .query(contextQuery)
    .then((context) => startSignIn(context, currentPath, { silent: true }))
    .catch(() => setSigningIn(false));
}

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      {/* Until the texts of the language shown have loaded, nothing is drawn. */}
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </QueryClientProvider>
  </StrictMode>,
);
