import type { ComponentType } from "react";
import { createBrowserRouter, Outlet, useLocation, type RouteObject } from "react-router";
import { routes, type RouteDefinition, type RouteName } from "../common/routes.ts";
import { CardLayout } from "./components/CardLayout.tsx";
import { Layout } from "./components/Layout.tsx";
import { pageErrorAt } from "./pageError.ts";
import { Home } from "./views/Home.tsx";
import { NotFound } from "./views/NotFound.tsx";
import { PageError } from "./views/PageError.tsx";
import { RouteError } from "./views/RouteError.tsx";

/** The component of each view route; view routes not listed here render NotFound until they get one. */
const views: Partial<Record<RouteName, ComponentType>> = {
  Home,
};

/** Views loaded on first use, each in its own chunk, so pages such as the auth flow stay small. */
const lazyViews: Partial<Record<RouteName, () => Promise<ComponentType>>> = {
  AuthFlowGet: async () => (await import("./views/AuthFlow.tsx")).AuthFlow,
  OIDCEndSession: async () => (await import("./views/SignOutConfirm.tsx")).SignOutConfirm,
  OIDCEndSessionSuccess: async () => (await import("./views/SignedOut.tsx")).SignedOut,
  IdentityList: async () => (await import("./views/IdentityList.tsx")).IdentityList,
  IdentityCreate: async () => (await import("./views/IdentityCreate.tsx")).IdentityCreate,
  IdentityGet: async () => (await import("./views/IdentityGet.tsx")).IdentityGet,
  Account: async () => (await import("./views/Account.tsx")).Account,
  ActivityList: async () => (await import("./views/ActivityList.tsx")).ActivityList,
  ActivityGet: async () => (await import("./views/ActivityGet.tsx")).ActivityGet,
  ApplicationTemplateList: async () =>
    (await import("./views/ApplicationTemplateList.tsx")).ApplicationTemplateList,
  ApplicationTemplateCreate: async () =>
    (await import("./views/ApplicationTemplateCreate.tsx")).ApplicationTemplateCreate,
  ApplicationTemplateGet: async () =>
    (await import("./views/ApplicationTemplateGet.tsx")).ApplicationTemplateGet,
  OrganizationList: async () => (await import("./views/OrganizationList.tsx")).OrganizationList,
  OrganizationCreate: async () => (await import("./views/OrganizationCreate.tsx")).OrganizationCreate,
  OrganizationGet: async () => (await import("./views/OrganizationGet.tsx")).OrganizationGet,
  OrganizationApp: async () => (await import("./views/OrganizationApp.tsx")).OrganizationApp,
  OrganizationIdentity: async () => (await import("./views/OrganizationIdentity.tsx")).OrganizationIdentity,
  OrganizationBlockUser: async () =>
    (await import("./views/OrganizationBlockUser.tsx")).OrganizationBlockUser,
  OrganizationUsers: async () => (await import("./views/OrganizationUsers.tsx")).OrganizationUsers,
  OrganizationActivity: async () => (await import("./views/OrganizationActivity.tsx")).OrganizationActivity,
  OrganizationActivityGet: async () =>
    (await import("./views/OrganizationActivityGet.tsx")).OrganizationActivityGet,
  About: async () => (await import("./views/About.tsx")).About,
  License: async () => (await import("./views/License.tsx")).License,
  Notice: async () => (await import("./views/Notice.tsx")).Notice,
};

const definitions: Record<RouteName, RouteDefinition> = routes;

function viewRoute(name: RouteName): RouteObject {
  const route = { path: definitions[name].path, caseSensitive: true };
  const load = lazyViews[name];
  return load ? { ...route, lazy: { Component: load } } : { ...route, Component: views[name] ?? NotFound };
}

/** Views a person reaches from an app, drawn as one card without the console's navigation. */
const cardViews: ReadonlySet<RouteName> = new Set([
  "AuthFlowGet",
  "OIDCEndSession",
  "OIDCEndSessionSuccess",
  "About",
  "License",
  "Notice",
]);

const viewNames = (Object.keys(definitions) as RouteName[]).filter((name) => definitions[name].view === true);
const consoleRoutes = viewNames.filter((name) => !cardViews.has(name)).map(viewRoute);
const cardRoutes = viewNames.filter((name) => cardViews.has(name)).map(viewRoute);

/** The address the server answered with an error shows that error (in the card), whatever view it names. */
function PageErrorGate() {
  const pageError = pageErrorAt(useLocation());
  return pageError ? (
    <CardLayout>
      <PageError pageError={pageError} />
    </CardLayout>
  ) : (
    <Outlet />
  );
}

export function createRouter(): ReturnType<typeof createBrowserRouter> {
  // A second boundary inside each layout keeps its frame when a view fails.
  return createBrowserRouter([
    {
      Component: PageErrorGate,
      children: [
        {
          Component: Layout,
          ErrorBoundary: RouteError,
          children: [{ ErrorBoundary: RouteError, children: consoleRoutes }],
        },
        {
          Component: CardLayout,
          ErrorBoundary: RouteError,
          children: [
            { ErrorBoundary: RouteError, children: [...cardRoutes, { path: "*", Component: NotFound }] },
          ],
        },
      ],
    },
  ]);
}
