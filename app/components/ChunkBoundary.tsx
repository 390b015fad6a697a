import { Component, type ReactNode } from "react";
import { isChunkLoadError } from "~/lib/chunk-load";

/**
 * Around a lazily loaded part whose page works without it: when its chunk cannot be loaded, the
 * fallback (the server-rendered version) stays instead of the whole page becoming an error page.
 * The chunk-load notice with its Reload button is shown by ClientErrorHandling meanwhile. Any
 * other error goes on to the route's error boundary.
 */
export class ChunkBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: unknown }> {
  state = { failed: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { failed: error ?? new Error("unknown render error") };
  }

  render() {
    const { failed } = this.state;
    if (failed === null) return this.props.children;
    if (isChunkLoadError(failed)) return this.props.fallback;
    throw failed;
  }
}
