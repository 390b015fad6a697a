import { createContext, useContext } from "react";

/**
 * What the server's loaders kept for the document's render only (keepForRender of
 * app/server/request-scope.server.ts): provided by entry.server.tsx, empty in the browser. A
 * component shows such markup in an element whose HTML the browser keeps as the server sent it.
 */
export const RenderOnlyContext = createContext<ReadonlyMap<string, unknown>>(new Map());

/** The value kept under `key` while the server renders the document; undefined in the browser. */
export function useRenderOnly<T>(key: string): T | undefined {
  return useContext(RenderOnlyContext).get(key) as T | undefined;
}
