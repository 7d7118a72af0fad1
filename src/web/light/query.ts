import { createContext, createElement, use, useEffect, useSyncExternalStore, type ReactNode } from "react";

// The light page's queries: what its views use of TanStack Query, as plain fetches kept by key. The
// light page's build resolves "@tanstack/react-query" to this module (scripts/build-web.ts), so the
// views the console shares with it stay as they are; the console keeps TanStack Query. It does as
// TanStack Query does for what those views ask: one fetch per key at a time, retries with the same
// delays, the data kept while refetching, stale data fetched again on mount, on the window's return
// to view and when back online, "static" data never, and unused data dropped after `gcTime`. A name
// its views import that is missing here fails that build.

type QueryKey = readonly unknown[];
type Retry = boolean | number | ((failures: number, error: Error) => boolean);

export interface QueryOptions<T> {
  readonly queryKey: QueryKey;
  readonly queryFn: (context: { signal: AbortSignal; queryKey: QueryKey }) => Promise<T>;
  readonly staleTime?: number | "static";
  readonly gcTime?: number;
  readonly retry?: Retry;
}

interface QueryState<T> {
  readonly data: T | undefined;
  readonly error: Error | null;
  readonly status: "pending" | "error" | "success";
  readonly isFetching: boolean;
  readonly updatedAt: number;
}

export interface QueryResult<T> {
  readonly data: T | undefined;
  readonly error: Error | null;
  readonly isPending: boolean;
  readonly isError: boolean;
  readonly isSuccess: boolean;
  readonly isFetching: boolean;
  readonly refetch: () => Promise<unknown>;
}

const defaultGcTime = 5 * 60 * 1000;
const retryDelay = (failures: number) => Math.min(1000 * 2 ** failures, 30_000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hashOf = (key: QueryKey) => JSON.stringify(key);

/** The identity: gives the options their type, as TanStack Query's does. */
export function queryOptions<T>(options: QueryOptions<T>): QueryOptions<T> {
  return options;
}

class Query<T = unknown> {
  state: QueryState<T> = { data: undefined, error: null, status: "pending", isFetching: false, updatedAt: 0 };
  invalidated = false;
  observers = 0;
  fetching: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly abort = new AbortController();
  private gcTimer: ReturnType<typeof setTimeout> | undefined;

  options: QueryOptions<T>;
  private readonly client: QueryClient;

  constructor(options: QueryOptions<T>, client: QueryClient) {
    this.options = options;
    this.client = client;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(change: Partial<QueryState<T>>) {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  isStale(): boolean {
    const { staleTime = 0 } = this.options;
    if (this.state.data === undefined) return true;
    if (staleTime === "static") return false;
    return this.invalidated || Date.now() - this.state.updatedAt >= staleTime;
  }

  /** Fetches, or joins the fetch under way; retries as the query's or the client's policy says. */
  fetch(): Promise<void> {
    this.fetching ??= this.run().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async run(): Promise<void> {
    const retry = this.options.retry ?? this.client.defaultRetry;
    this.set({ isFetching: true });
    for (let failures = 0; ; failures++) {
      try {
        const data = await this.options.queryFn({
          signal: this.abort.signal,
          queryKey: this.options.queryKey,
        });
        this.invalidated = false;
        this.set({ data, error: null, status: "success", isFetching: false, updatedAt: Date.now() });
        return;
      } catch (caught) {
        const error = caught instanceof Error ? caught : new Error(String(caught));
        const again =
          retry === true ||
          (typeof retry === "number" && failures < retry) ||
          (typeof retry === "function" && retry(failures, error));
        if (!again || this.abort.signal.aborted) {
          this.set({ error, status: "error", isFetching: false });
          return;
        }
        await sleep(retryDelay(failures));
      }
    }
  }

  observe(): () => void {
    this.observers++;
    clearTimeout(this.gcTimer);
    return () => {
      this.observers--;
      if (this.observers > 0) return;
      this.gcTimer = setTimeout(() => {
        this.abort.abort();
        this.client.forget(this);
      }, this.options.gcTime ?? defaultGcTime);
    };
  }
}

interface QueryClientConfig {
  readonly defaultOptions?: { readonly queries?: { readonly retry?: Retry } };
}

export class QueryClient {
  readonly defaultRetry: Retry;
  private readonly queries = new Map<string, Query>();

  constructor(config: QueryClientConfig = {}) {
    this.defaultRetry = config.defaultOptions?.queries?.retry ?? 3;
  }

  query<T>(options: QueryOptions<T>): Query<T> {
    const hash = hashOf(options.queryKey);
    let query = this.queries.get(hash) as Query<T> | undefined;
    if (query === undefined) {
      query = new Query(options, this);
      this.queries.set(hash, query);
    } else query.options = options;
    return query;
  }

  forget(query: Query): void {
    const hash = hashOf(query.options.queryKey);
    if (this.queries.get(hash) === query) this.queries.delete(hash);
  }

  /** Marks the queries under `queryKey` stale and fetches again those on the page. */
  async invalidateQueries({ queryKey }: { readonly queryKey: QueryKey }): Promise<void> {
    const prefix = hashOf(queryKey).slice(0, -1);
    const matching = [...this.queries.entries()].filter(
      ([hash]) => hash === prefix + "]" || hash.startsWith(prefix + ","),
    );
    await Promise.all(
      matching.map(async ([, query]) => {
        query.invalidated = true;
        if (query.observers === 0) return;
        // A fetch under way may have started before the change: fetch once more after it.
        await query.fetching;
        await query.fetch();
      }),
    );
  }

  /** Fetches again what is shown and stale (the window came back into view, or the network back). */
  refetchShown(): void {
    for (const query of this.queries.values()) {
      if (query.observers > 0 && query.isStale()) void query.fetch();
    }
  }
}

const ClientContext = createContext<QueryClient | null>(null);

export function QueryClientProvider({ client, children }: { client: QueryClient; children?: ReactNode }) {
  useEffect(() => {
    const refetch = () => {
      if (document.visibilityState === "visible") client.refetchShown();
    };
    document.addEventListener("visibilitychange", refetch);
    window.addEventListener("online", refetch);
    return () => {
      document.removeEventListener("visibilitychange", refetch);
      window.removeEventListener("online", refetch);
    };
  }, [client]);
  return createElement(ClientContext, { value: client }, children);
}

export function useQueryClient(): QueryClient {
  const client = use(ClientContext);
  if (client === null) throw new Error("useQueryClient is used outside <QueryClientProvider>");
  return client;
}

export function useQuery<T>(options: QueryOptions<T>): QueryResult<T> {
  const query = useQueryClient().query(options);
  const state = useSyncExternalStore(query.subscribe, () => query.state);
  useEffect(() => {
    const stop = query.observe();
    if (query.isStale()) void query.fetch();
    return stop;
  }, [query]);
  return {
    data: state.data,
    error: state.error,
    isPending: state.status === "pending",
    isError: state.status === "error",
    isSuccess: state.status === "success",
    isFetching: state.isFetching,
    refetch: () => query.fetch(),
  };
}

/** As useQuery, for data the component needs to be drawn: suspends until it has loaded. */
export function useSuspenseQuery<T>(options: QueryOptions<T>): QueryResult<T> & { readonly data: T } {
  const client = useQueryClient();
  const result = useQuery(options);
  if (result.data !== undefined) return { ...result, data: result.data };
  if (result.error !== null) throw result.error;
  const query = client.query(options);
  use(query.fetch());
  const { data, error } = query.state;
  if (data === undefined) throw error ?? new Error("a query loaded no data");
  return { ...result, data };
}
