import { Component, type ReactNode } from "react";
import { RouteErrorPanel } from "../views/RouteError.tsx";

interface ViewErrorBoundaryState {
  readonly error?: unknown;
}

/**
 * Where the light page's router has no error boundaries of its own: a view that fails to render shows
 * what the console's router shows in its place. Give it a `key` per address so that going on to
 * another page shows that page again.
 */
export class ViewErrorBoundary extends Component<{ readonly children: ReactNode }, ViewErrorBoundaryState> {
  override state: ViewErrorBoundaryState = {};

  static getDerivedStateFromError(error: unknown): ViewErrorBoundaryState {
    return { error };
  }

  override render() {
    return "error" in this.state ? <RouteErrorPanel error={this.state.error} /> : this.props.children;
  }
}
