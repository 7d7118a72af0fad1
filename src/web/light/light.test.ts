import { createElement, type ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { QueryClient, queryOptions } from "./query.ts";
import { bestBranch, Route } from "./router.tsx";

describe("the light page's route switch", () => {
  const view = (name: string) => createElement("p", null, name);
  const route = (path: string | undefined, element: ReactNode, ...children: ReactNode[]) =>
    createElement(Route, { path, element, caseSensitive: true, key: path ?? "layout" }, ...children);
  // The light page's tree: layout routes around the card views and the console's catch-all.
  const tree = route(
    undefined,
    view("gate"),
    route(
      undefined,
      view("layout"),
      route("/auth/:id", view("flow")),
      route("/auth/oidc/logout", view("sign out")),
      route("/auth/oidc/logout/success", view("signed out")),
      route("/LICENSE", view("license")),
      route("*", view("console")),
    ),
  );
  const shown = (pathname: string) => {
    const branch = bestBranch(tree, pathname);
    return {
      elements: branch?.elements.map((element) =>
        String((element as { props: { children: unknown } }).props.children),
      ),
      params: branch?.params,
    };
  };

  it("draws the matched view inside its layout routes, with its parameters decoded", () => {
    expect(shown("/auth/Abc%20d")).toEqual({ elements: ["gate", "layout", "flow"], params: { id: "Abc d" } });
    expect(shown("/auth/oidc")).toEqual({ elements: ["gate", "layout", "flow"], params: { id: "oidc" } });
  });

  it("prefers fixed segments, takes a trailing slash and keeps the case asked for", () => {
    expect(shown("/auth/oidc/logout").elements).toEqual(["gate", "layout", "sign out"]);
    expect(shown("/auth/oidc/logout/success/").elements).toEqual(["gate", "layout", "signed out"]);
    expect(shown("/LICENSE").elements).toEqual(["gate", "layout", "license"]);
    expect(shown("/license").elements).toEqual(["gate", "layout", "console"]);
  });

  it("leaves every other address to the catch-all", () => {
    expect(shown("/").elements).toEqual(["gate", "layout", "console"]);
    expect(shown("/auth/a/b/c").elements).toEqual(["gate", "layout", "console"]);
  });
});

describe("the light page's queries", () => {
  class Refused extends Error {}
  const refusedAtOnce = (failures: number, error: Error) => !(error instanceof Refused) && failures < 2;

  it("fetches a key once however many ask for it at the same time, and keeps the answer", async () => {
    const client = new QueryClient();
    let calls = 0;
    const options = queryOptions({
      queryKey: ["about"],
      queryFn: () => Promise.resolve(++calls),
      staleTime: "static",
    });
    await Promise.all([client.query(options).fetch(), client.query(options).fetch()]);
    expect(calls).toBe(1);
    expect(client.query(options).state).toMatchObject({ data: 1, status: "success", isFetching: false });
    expect(client.query(options).isStale()).toBe(false);
  });

  it("shows a refusal at once and retries other failures as the client's policy says", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: refusedAtOnce } } });
    let refusals = 0;
    const refused = client.query({
      queryKey: ["refused"],
      queryFn: () => Promise.reject(new Refused(`refusal ${String(++refusals)}`)),
    });
    await refused.fetch();
    expect(refusals).toBe(1);
    expect(refused.state).toMatchObject({ status: "error", error: { message: "refusal 1" } });

    let failures = 0;
    const flaky = client.query({
      queryKey: ["flaky"],
      queryFn: () => (++failures < 2 ? Promise.reject(new Error("unreachable")) : Promise.resolve("answer")),
    });
    await flaky.fetch();
    expect(flaky.state).toMatchObject({ status: "success", data: "answer", error: null });
  });

  it("keeps what it had while fetching again, and an error until an answer replaces it", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let fail = true;
    const flow = client.query({
      queryKey: ["authFlow", "one"],
      queryFn: () => (fail ? Promise.reject(new Error("unreachable")) : Promise.resolve("flow")),
    });
    await flow.fetch();
    fail = false;
    const again = flow.fetch();
    expect(flow.state).toMatchObject({ status: "error", isFetching: true });
    await again;
    expect(flow.state).toMatchObject({ status: "success", data: "flow", error: null, isFetching: false });
  });

  it("invalidates the keys under a prefix and fetches again those shown", async () => {
    const client = new QueryClient();
    const counted = (key: readonly string[]) => {
      let calls = 0;
      const query = client.query({
        queryKey: key,
        queryFn: () => Promise.resolve(++calls),
        staleTime: 60_000,
        gcTime: 0,
      });
      return { query, calls: () => calls };
    };
    const identities = counted(["authFlow", "one", "identities"]);
    const other = counted(["authFlow", "two", "identities"]);
    const stop = identities.query.observe();
    await Promise.all([identities.query.fetch(), other.query.fetch()]);
    expect(identities.query.isStale()).toBe(false);

    await client.invalidateQueries({ queryKey: ["authFlow", "one"] });
    expect(identities.calls()).toBe(2);
    expect(identities.query.state.data).toBe(2);
    expect(other.calls()).toBe(1);
    expect(other.query.isStale()).toBe(false);
    stop();
  });
});
