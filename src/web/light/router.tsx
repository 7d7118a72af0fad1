import {
  Children,
  createContext,
  isValidElement,
  startTransition,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from "react";

// The light page's router: what its views use of React Router's declarative mode, in a few lines
// over the browser's history. The light page's build resolves "react-router" to this module
// (scripts/build-web.ts), so the views the console shares with it stay as they are; the console keeps
// React Router. A name its views import that is missing here fails that build.

export interface Location {
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  readonly state: unknown;
  readonly key: string;
}

interface NavigateOptions {
  readonly replace?: boolean;
  readonly state?: unknown;
}

type Navigate = (to: string, options?: NavigateOptions) => void;

interface RouterState {
  readonly location: Location;
  readonly navigate: Navigate;
}

interface Match {
  readonly params: Readonly<Record<string, string>>;
  readonly outlet: ReactNode;
}

const RouterContext = createContext<RouterState | null>(null);
const MatchContext = createContext<Match>({ params: {}, outlet: null });

interface HistoryState {
  readonly usr?: unknown;
  readonly key?: string;
}

function currentLocation(): Location {
  const state = (window.history.state ?? {}) as HistoryState;
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: state.usr ?? null, key: state.key ?? "default" };
}

function useRouter(): RouterState {
  const router = use(RouterContext);
  if (router === null) throw new Error("a router hook is used outside <BrowserRouter>");
  return router;
}

/** The address and the history of the browser's window; a change draws the next page in a transition. */
export function BrowserRouter({ children }: { readonly children?: ReactNode }) {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const follow = () => startTransition(() => setLocation(currentLocation()));
    window.addEventListener("popstate", follow);
    return () => window.removeEventListener("popstate", follow);
  }, []);
  const navigate = useCallback<Navigate>((to, options = {}) => {
    const url = new URL(to, window.location.href);
    const entry: HistoryState = { usr: options.state, key: Math.random().toString(36).slice(2, 10) };
    const address = url.pathname + url.search + url.hash;
    if (options.replace) window.history.replaceState(entry, "", address);
    else window.history.pushState(entry, "", address);
    startTransition(() => setLocation(currentLocation()));
  }, []);
  const router = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext value={router}>{children}</RouterContext>;
}

interface RouteProps {
  readonly path?: string;
  readonly caseSensitive?: boolean;
  readonly element?: ReactNode;
  readonly children?: ReactNode;
}

/** A route of <Routes>: only read by it, never drawn itself. */
export const Route: (props: RouteProps) => ReactNode = () => null;

export interface Branch {
  /** The elements from the outermost layout route to the matched one. */
  readonly elements: readonly ReactNode[];
  readonly params: Record<string, string>;
  readonly score: number;
}

/** How specific a path is, as React Router ranks them: fixed segments first, the catch-all last. */
function scoreOf(path: string): number {
  return path
    .split("/")
    .filter(Boolean)
    .reduce((score, segment) => score + (segment === "*" ? -2 : segment.startsWith(":") ? 3 : 10), 0);
}

function matchPath(route: RouteProps, pathname: string): Record<string, string> | null {
  const path = route.path ?? "";
  if (path === "*") return {};
  const names: string[] = [];
  const pattern = path
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      if (!segment.startsWith(":")) return "/" + segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(segment.slice(1));
      return "/([^/]+)";
    })
    .join("");
  const found = new RegExp(`^${pattern}/*$`, route.caseSensitive ? "" : "i").exec(pathname);
  if (found === null) return null;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? "")]));
}

/** Every route of the tree that matches, each with the layout routes around it. */
function branchesOf(children: ReactNode, pathname: string, outer: readonly ReactNode[]): Branch[] {
  return Children.toArray(children).flatMap((child) => {
    if (!isValidElement<RouteProps>(child)) return [];
    const route = child.props;
    const elements = [...outer, route.element ?? <Outlet />];
    if (route.path === undefined) return branchesOf(route.children, pathname, elements);
    const params = matchPath(route, pathname);
    return params === null ? [] : [{ elements, params, score: scoreOf(route.path) }];
  });
}

/** The most specific route of `<Route>` elements that matches `pathname`; the first of equals. */
export function bestBranch(routes: ReactNode, pathname: string): Branch | null {
  return branchesOf(routes, pathname, []).reduce<Branch | null>(
    (chosen, branch) => (chosen === null || branch.score > chosen.score ? branch : chosen),
    null,
  );
}

/** Draws the most specific route that matches the address, inside its layout routes. */
export function Routes({ children }: { readonly children?: ReactNode }) {
  const best = bestBranch(children, useRouter().location.pathname);
  if (best === null) return null;
  return best.elements.reduceRight<ReactNode>(
    (outlet, element) => <MatchContext value={{ params: best.params, outlet }}>{element}</MatchContext>,
    null,
  );
}

/** Where a layout route draws the route inside it. */
export function Outlet(): ReactNode {
  return use(MatchContext).outlet;
}

export function useLocation(): Location {
  return useRouter().location;
}

export function useNavigate(): Navigate {
  return useRouter().navigate;
}

export function useParams(): Readonly<Record<string, string | undefined>> {
  return use(MatchContext).params;
}

/** The light page's routes have no error elements (its views fail into ViewErrorBoundary): none. */
export function useRouteError(): unknown {
  return undefined;
}

interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  readonly to: string;
  readonly replace?: boolean;
  readonly state?: unknown;
}

/** A link that goes on within the page, as a plain link does when opened elsewhere (a new tab, say). */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps): ReactElement {
  const { navigate } = useRouter();
  const href = new URL(to, window.location.href);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const plain = event.button === 0 && !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey);
    if (event.defaultPrevented || !plain || (target !== undefined && target !== "_self")) return;
    if (href.origin !== window.location.origin) return;
    event.preventDefault();
    const address = href.pathname + href.search + href.hash;
    // As React Router does, a link to the address shown replaces it rather than repeating it.
    const here = window.location.pathname + window.location.search + window.location.hash;
    navigate(address, { replace: replace ?? address === here, state });
  };
  return (
    <a
      {...rest}
      target={target}
      href={href.origin === window.location.origin ? href.pathname + href.search + href.hash : href.href}
      onClick={follow}
    />
  );
}
