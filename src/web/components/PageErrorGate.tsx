import { Outlet, useLocation } from "react-router";
import { pageErrorAt } from "../pageError.ts";
import { PageError } from "../views/PageError.tsx";
import { CardLayout } from "./CardLayout.tsx";

/** The address the server answered with an error shows that error (in the card), whatever view it names. */
export function PageErrorGate() {
  const pageError = pageErrorAt(useLocation());
  return pageError ? (
    <CardLayout>
      <PageError pageError={pageError} />
    </CardLayout>
  ) : (
    <Outlet />
  );
}
