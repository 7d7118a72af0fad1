import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { contextQuery } from "./api.ts";
import { completeSignIn, signInErrorCode, takeSignInCallback } from "./auth.ts";
import "./i18n/index.ts";
import { createRouter } from "./router.tsx";
import { setSignInError } from "./session.ts";

// Before the router reads the address, so that it never sees the authorization response's query.
const signInCallback = takeSignInCallback();

const queryClient = new QueryClient();
const router = createRouter();

if (signInCallback !== null) {
  queryClient
    .query(contextQuery)
    .then((context) => completeSignIn(context, signInCallback))
    .then((path) => router.navigate(path, { replace: true }))
    .catch((error: unknown) => setSignInError(signInErrorCode(error)));
}

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
