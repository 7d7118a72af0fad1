import { lazy, Suspense, useEffect, type ComponentType } from "react";
import { BrowserRouter, Route, Routes, useLocation } from "react-router";
import { routes, type RouteDefinition, type RouteName } from "../common/routes.ts";
import { CardLayout } from "./components/CardLayout.tsx";
import { PageErrorGate } from "./components/PageErrorGate.tsx";
import { ViewErrorBoundary } from "./components/ViewErrorBoundary.tsx";
import { cardViews } from "./cardViews.ts";
import { loadedAddress } from "./pageError.ts";
import { NotFound } from "./views/NotFound.tsx";

const definitions: Record<RouteName, RouteDefinition> = routes;

/**
 * An address outside the card views belongs to the console, whose page the server answers it with:
 * the browser loads that page. Only an address this page itself was loaded at, which the server should
 * have answered otherwise, says it names no page (rather than loading again and again).
 */
function ConsolePage() {
  const { pathname, search, hash } = useLocation();
  const loadedHere = pathname + search === loadedAddress;
  useEffect(() => {
    if (!loadedHere) window.location.replace(pathname + search + hash);
  }, [loadedHere, pathname, search, hash]);
  return loadedHere ? <NotFound /> : null;
}

/** A card view, loaded on first use; when it fails, the card stays and says so. */
function ViewRoute({ view: View }: { readonly view: ComponentType }) {
  const { pathname } = useLocation();
  return (
    <ViewErrorBoundary key={pathname}>
      <View />
    </ViewErrorBoundary>
  );
}

const cardRoutes = (Object.keys(cardViews) as RouteName[]).flatMap((name) => {
  const load = cardViews[name];
  if (!load) return [];
  const View = lazy(async () => ({ default: await load() }));
  return [
    <Route key={name} path={definitions[name].path} caseSensitive element={<ViewRoute view={View} />} />,
  ];
});

/**
 * The light page's app: the card views alone, without the console's data router, navigation and
 * texts. Until the first view has loaded nothing is drawn, as on the console's page.
 */
export function CardApp() {
  return (
    <BrowserRouter>
      <ViewErrorBoundary>
        <Suspense fallback={null}>
          <Routes>
            <Route element={<PageErrorGate />}>
              <Route element={<CardLayout />}>
                {cardRoutes}
                <Route path="*" element={<ConsolePage />} />
              </Route>
            </Route>
          </Routes>
        </Suspense>
      </ViewErrorBoundary>
    </BrowserRouter>
  );
}
