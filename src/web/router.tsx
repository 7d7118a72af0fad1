import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { routes, type RouteDefinition, type RouteName } from "../common/routes.ts";
import { Layout } from "./components/Layout.tsx";
import { Home } from "./views/Home.tsx";
import { NotFound } from "./views/NotFound.tsx";
import { RouteError } from "./views/RouteError.tsx";

/** The component of each view route; view routes not listed here render NotFound until they get one. */
const views: Partial<Record<RouteName, ComponentType>> = {
  Home,
};

const definitions: Record<RouteName, RouteDefinition> = routes;

const viewRoutes: RouteObject[] = (Object.keys(definitions) as RouteName[])
  .filter((name) => definitions[name].view === true)
  .map((name) => ({ path: definitions[name].path, caseSensitive: true, Component: views[name] ?? NotFound }));

export function createRouter(): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter([
    {
      Component: Layout,
      ErrorBoundary: RouteError,
      // A second boundary inside the layout keeps the navigation and footer when a view fails.
      children: [
        { ErrorBoundary: RouteError, children: [...viewRoutes, { path: "*", Component: NotFound }] },
      ],
    },
  ]);
}
