import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { routes, type RouteDefinition, type RouteName } from "../common/routes.ts";
import { cardViews } from "./cardViews.ts";
import { CardLayout } from "./components/CardLayout.tsx";
import { FirstLoad } from "./components/FirstLoad.tsx";
import { Layout } from "./components/Layout.tsx";
import { PageErrorGate } from "./components/PageErrorGate.tsx";
import { Home } from "./views/Home.tsx";
import { NotFound } from "./views/NotFound.tsx";
import { RouteError } from "./views/RouteError.tsx";

/** The component of each view route; view routes not listed here render NotFound until they get one. */
const views: Partial<Record<RouteName, ComponentType>> = {
  Home,
};

/**
 * Views loaded on first use, each in its own chunk. The card views are here too, so that the console
 * reaches them (its footer's about page, say) without loading the light page.
 */
const lazyViews: Partial<Record<RouteName, () => Promise<ComponentType>>> = {
  ...cardViews,
  IdentityList: async () => (await import("./views/IdentityList.tsx")).IdentityList,
  IdentityCreate: async () => (await import("./views/IdentityCreate.tsx")).IdentityCreate,
  IdentityGet: async () => (await import("./views/IdentityGet.tsx")).IdentityGet,
  InvitationGet: async () => (await import("./views/InvitationGet.tsx")).InvitationGet,
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
  OrganizationAppTry: async () => (await import("./views/OrganizationAppTry.tsx")).OrganizationAppTry,
  OrganizationIdentity: async () => (await import("./views/OrganizationIdentity.tsx")).OrganizationIdentity,
  OrganizationBlockUser: async () =>
    (await import("./views/OrganizationBlockUser.tsx")).OrganizationBlockUser,
  OrganizationUsers: async () => (await import("./views/OrganizationUsers.tsx")).OrganizationUsers,
  OrganizationActivity: async () => (await import("./views/OrganizationActivity.tsx")).OrganizationActivity,
  OrganizationActivityGet: async () =>
    (await import("./views/OrganizationActivityGet.tsx")).OrganizationActivityGet,
  ConnectApp: async () => (await import("./views/ConnectApp.tsx")).ConnectApp,
};

const definitions: Record<RouteName, RouteDefinition> = routes;

function viewRoute(name: RouteName): RouteObject {
  const route = { path: definitions[name].path, caseSensitive: true };
  const load = lazyViews[name];
  return load ? { ...route, lazy: { Component: load } } : { ...route, Component: views[name] ?? NotFound };
}

const viewNames = (Object.keys(definitions) as RouteName[]).filter((name) => definitions[name].view === true);
// Views a person reaches from an app are drawn as one card, without the console's navigation.
const consoleRoutes = viewNames.filter((name) => definitions[name].card !== true).map(viewRoute);
const cardRoutes = viewNames.filter((name) => definitions[name].card === true).map(viewRoute);

export function createRouter(): ReturnType<typeof createBrowserRouter> {
  // A second boundary inside each layout keeps its frame when a view fails.
  return createBrowserRouter([
    {
      Component: PageErrorGate,
      // The views are loaded on first use: the first one is still loading when the router starts.
      HydrateFallback: FirstLoad,
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
