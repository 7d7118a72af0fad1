import { expect, it } from "vitest";
import { routes, type RouteDefinition } from "../common/routes.ts";
import { cardViews } from "./cardViews.ts";

it("gives the light page a view for every card view of the route table, and only those", () => {
  const definitions: Record<string, RouteDefinition> = routes;
  const cardViewRoutes = Object.keys(definitions).filter(
    (name) => definitions[name]?.card && definitions[name].view,
  );
  expect(Object.keys(cardViews).sort()).toEqual(cardViewRoutes.sort());
});
