import { lazy, Suspense } from "react";
import { Outlet, useLocation } from "react-router";
import { pageErrorAt } from "../pageError.ts";
import { CardLayout } from "./CardLayout.tsx";

// Loaded only by a page the server answered with an error.
const PageError = lazy(async () => ({ default: (await import("../views/PageError.tsx")).PageError }));

/** The address the server answered with an error shows that error (in the card), whatever view it names. */
export function PageErrorGate() {
  const pageError = pageErrorAt(useLocation());
  return pageError ? (
    <CardLayout>
      <Suspense fallback={null}>
        <PageError pageError={pageError} />
      </Suspense>
    </CardLayout>
  ) : (
    <Outlet />
  );
}
