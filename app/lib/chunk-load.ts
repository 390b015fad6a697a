/**
 * Parts of the application that fail to load in the browser (looking glass §8 "Chunk load
 * failure: 'Loading chunk failed' with type and URL. CSS chunk failure is likewise"; §9 "Script
 * chunk load time-out: 120 s"). Such a failure is not a bug to report (shell §8): the file was
 * replaced by a newer deployment or the connection broke, and a reload fixes it. So it becomes a
 * notice with the type and address of the file and a Reload button, never an error report.
 *
 * Pure helpers plus a watcher over a document, so the rules are unit-tested without a browser.
 */
import { CHUNK_LOAD_TIMEOUT_MS } from "./constants";

export type ChunkType = "script" | "stylesheet";
export type ChunkFailure = { type: ChunkType; url: string; reason: "error" | "timeout" };

/** The messages browsers and Vite give a failed dynamic import or preload. */
const CHUNK_PATTERNS = [
  /Loading (CSS )?chunk [\w-]+ failed/i,
  /Failed to fetch dynamically imported module/i,
  /Importing a module script failed/i,
  /error loading dynamically imported module/i,
  /Unable to preload CSS/i,
];

const messageOf = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : typeof error === "string" ? error : "";

/** Whether an error (or its message) is a failed load of a part of the application. */
export function isChunkLoadError(error: unknown): boolean {
  const message = messageOf(error);
  return CHUNK_PATTERNS.some((p) => p.test(message));
}

/** The type and address of the file behind a chunk-load error (null: not one). */
export function chunkFailureOf(error: unknown): ChunkFailure | null {
  if (!isChunkLoadError(error)) return null;
  const message = messageOf(error);
  const url = /((?:https?:\/\/|\/)[^\s()'"]+)/.exec(message)?.[1] ?? "";
  const type: ChunkType = /css/i.test(message) || /\.css(\?|$)/.test(url) ? "stylesheet" : "script";
  return { type, url, reason: "error" };
}

/**
 * What the notice says about the file under its title 'Loading chunk failed': the type and URL,
 * e.g. "The script /assets/x.js could not be loaded."
 */
export function chunkFailureText(failure: ChunkFailure): string {
  const what = `The ${failure.type}${failure.url ? ` ${failure.url}` : ""}`;
  return failure.reason === "timeout" ? `${what} did not load within ${CHUNK_LOAD_TIMEOUT_MS / 1000} s.` : `${what} could not be loaded.`;
}

/** The element's address as the browser resolved it (absolute), else as written. */
function addressOf(element: Element, attribute: "src" | "href"): string | null {
  const resolved = (element as unknown as Record<string, unknown>)[attribute];
  return typeof resolved === "string" && resolved ? resolved : element.getAttribute(attribute);
}

/** The kind of file an element loads, if it loads a part of the application. */
function chunkTypeOf(node: Node): { type: ChunkType; url: string } | null {
  if (node.nodeType !== 1) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (tag === "script") {
    const src = addressOf(element, "src");
    return src ? { type: "script", url: src } : null;
  }
  if (tag !== "link") return null;
  const href = addressOf(element, "href");
  const rel = (element.getAttribute("rel") ?? "").toLowerCase();
  if (!href) return null;
  if (rel === "stylesheet") return { type: "stylesheet", url: href };
  if (rel === "modulepreload" || (rel === "preload" && element.getAttribute("as") === "script")) return { type: "script", url: href };
  return null;
}

type Timers = { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void };
const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

/**
 * Watches the scripts and stylesheets added to the document from now on — Vite's preloads of a
 * dynamic import, Remix's prefetch links, stylesheets of lazily loaded parts — and calls
 * `onFailure` when one fails, or has neither loaded nor failed after `timeoutMs` (a hanging load
 * counts as failed, looking glass §9). Elements present at installation are not watched: the page
 * hydrated, so they loaded. A bare `import()` adds no element; its failure arrives as a rejection
 * (see chunkFailureOf). Returns the function that stops watching.
 */
export function watchChunkLoads(
  root: Node,
  onFailure: (failure: ChunkFailure) => void,
  options: { timeoutMs?: number; timers?: Timers } = {},
): () => void {
  const timeoutMs = options.timeoutMs ?? CHUNK_LOAD_TIMEOUT_MS;
  const timers = options.timers ?? realTimers;
  const watched = new Map<Element, unknown>();

  const watch = (element: Element, chunk: { type: ChunkType; url: string }) => {
    if (watched.has(element)) return;
    const settle = (failure: ChunkFailure | null) => {
      if (!watched.has(element)) return;
      timers.clear(watched.get(element));
      watched.delete(element);
      element.removeEventListener("load", onLoad);
      element.removeEventListener("error", onError);
      if (failure) onFailure(failure);
    };
    const onLoad = () => settle(null);
    const onError = () => settle({ ...chunk, reason: "error" });
    element.addEventListener("load", onLoad);
    element.addEventListener("error", onError);
    watched.set(
      element,
      timers.set(() => settle({ ...chunk, reason: "timeout" }), timeoutMs),
    );
  };

  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        const chunk = chunkTypeOf(node);
        if (chunk) watch(node as Element, chunk);
      }
  });
  observer.observe(root, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    for (const handle of watched.values()) timers.clear(handle);
    watched.clear();
  };
}
