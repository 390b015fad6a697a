import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { chunkFailureOf, chunkFailureText, isChunkLoadError, watchChunkLoads, type ChunkFailure } from "~/lib/chunk-load";
import { CHUNK_LOAD_TIMEOUT_MS, ERROR_ALERT_DEBOUNCE_MS } from "~/lib/constants";
import { createErrorReporter, installErrorReporting, isReportable, reportOf, type ClientErrorReport } from "~/lib/error-reporter";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function reporter() {
  const sent: ClientErrorReport[] = [];
  const r = createErrorReporter({
    send: async (report) => void sent.push(report),
    pageUrl: () => "https://flowlens.example/flow-explorer?x=1",
  });
  return { r, sent };
}

describe("what is reported", () => {
  it("skips network errors, chunk-load failures, the ResizeObserver loop and aborts", () => {
    expect(isReportable(new TypeError("Failed to fetch"))).toBe(false);
    expect(isReportable(new TypeError("NetworkError when attempting to fetch resource."))).toBe(false);
    expect(isReportable(new Error("Network request failed"))).toBe(false);
    expect(isReportable(new TypeError("Failed to fetch dynamically imported module: https://h/assets/ResultsTable-x1.js"))).toBe(false);
    expect(isReportable(new Error("Unable to preload CSS for /assets/chart-9f.css"))).toBe(false);
    expect(isReportable(new Error("Loading chunk 42 failed."))).toBe(false);
    expect(isReportable(new Error("Loading CSS chunk 7 failed."))).toBe(false);
    expect(isReportable(null, "ResizeObserver loop completed with undelivered notifications.")).toBe(false);
    expect(isReportable(null, "ResizeObserver loop limit exceeded")).toBe(false);
    expect(isReportable(new DOMException("The operation was aborted.", "AbortError"))).toBe(false);
  });

  it("reports every other error", () => {
    expect(isReportable(new Error("boom"))).toBe(true);
    expect(isReportable(new RangeError("Invalid time value"))).toBe(true);
    // A TypeError is a bug unless its text is a failed fetch's.
    expect(isReportable(new TypeError("Cannot read properties of undefined (reading 'rows')"))).toBe(true);
    expect(isReportable("a rejection with a plain string")).toBe(true);
    expect(isReportable(null, "Uncaught ReferenceError: x is not defined")).toBe(true);
  });

  it("writes the body within the endpoint's limits, without control characters", () => {
    const error = new Error("bad\u0000value");
    error.stack = "Error: bad\n    at f (app.js:1:2)\n" + "x".repeat(30_000);
    const report = reportOf(error, "", "https://h/p");
    expect(report.message).toBe("Error: bad value");
    expect(report.stacktrace.startsWith("Error: bad\n    at f (app.js:1:2)\n")).toBe(true);
    expect(report.stacktrace).toHaveLength(20_000);
    expect(report.url).toBe("https://h/p");
    expect(reportOf({ code: 7 }, "", "u").message).toBe('{"code":7}');
    expect(reportOf(undefined, "", "u").message).toBe("Unknown error");
  });
});

describe("debounce", () => {
  it("sends the first error of a burst once the page has been quiet for 1000 ms", async () => {
    const { r, sent } = reporter();
    expect(r.capture(new Error("first"))).toBe(true);
    await vi.advanceTimersByTimeAsync(600);
    r.capture(new Error("second"));
    await vi.advanceTimersByTimeAsync(ERROR_ALERT_DEBOUNCE_MS - 1);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.map((s) => s.message)).toEqual(["Error: first"]);
    expect(sent[0].url).toBe("https://flowlens.example/flow-explorer?x=1");
    // A later error starts a new burst.
    r.capture(new Error("third"));
    await vi.advanceTimersByTimeAsync(ERROR_ALERT_DEBOUNCE_MS);
    expect(sent.map((s) => s.message)).toEqual(["Error: first", "Error: third"]);
  });

  it("a page failing in a loop is still reported, at most once per 5 debounce periods", async () => {
    const { r, sent } = reporter();
    for (let i = 0; i < 100; i++) {
      r.capture(new Error(`loop ${i}`));
      await vi.advanceTimersByTimeAsync(500);
    }
    // 50 s of errors every 500 ms: one report per 5 s.
    expect(sent).toHaveLength(10);
    expect(sent[0].message).toBe("Error: loop 0");
  });

  it("skipped errors neither send nor delay a report", async () => {
    const { r, sent } = reporter();
    expect(r.capture(new TypeError("Failed to fetch"))).toBe(false);
    expect(r.capture(null, "ResizeObserver loop limit exceeded")).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toEqual([]);
  });

  it("a failing report is dropped, not reported again", async () => {
    let attempts = 0;
    const r = createErrorReporter({
      send: async () => {
        attempts++;
        throw new TypeError("Failed to fetch");
      },
      pageUrl: () => "u",
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    r.capture(new Error("boom"));
    await vi.advanceTimersByTimeAsync(ERROR_ALERT_DEBOUNCE_MS * 10);
    await vi.useRealTimers();
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off("unhandledRejection", onUnhandled);
    expect(attempts).toBe(1);
    expect(unhandled).toEqual([]);
  });
});

describe("installation on a window", () => {
  it("reports uncaught errors and unhandled rejections, hands chunk failures to the notice", async () => {
    const target = new EventTarget() as EventTarget & { location: { href: string } };
    target.location = { href: "https://h/looking-glass" };
    const sent: ClientErrorReport[] = [];
    const chunks: unknown[] = [];
    const stop = installErrorReporting(target as unknown as Window, {
      send: async (report) => void sent.push(report),
      onChunkError: (error) => chunks.push(error),
    });
    const errorEvent = (error: unknown, message: string) => Object.assign(new Event("error"), { error, message });
    const rejection = (reason: unknown) => Object.assign(new Event("unhandledrejection"), { reason });

    target.dispatchEvent(errorEvent(new Error("render failed"), "Uncaught Error: render failed"));
    await vi.advanceTimersByTimeAsync(ERROR_ALERT_DEBOUNCE_MS);
    target.dispatchEvent(rejection(new RangeError("Invalid time value")));
    await vi.advanceTimersByTimeAsync(ERROR_ALERT_DEBOUNCE_MS);
    target.dispatchEvent(rejection(new TypeError("Failed to fetch")));
    target.dispatchEvent(errorEvent(null, "ResizeObserver loop completed with undelivered notifications."));
    const chunk = new TypeError("Failed to fetch dynamically imported module: https://h/assets/ResultsTable-x1.js");
    target.dispatchEvent(rejection(chunk));
    await vi.advanceTimersByTimeAsync(ERROR_ALERT_DEBOUNCE_MS * 3);

    expect(sent.map((s) => [s.message, s.url])).toEqual([
      ["Uncaught Error: render failed", "https://h/looking-glass"],
      ["RangeError: Invalid time value", "https://h/looking-glass"],
    ]);
    expect(sent[1].stacktrace).toContain("RangeError: Invalid time value");
    expect(chunks).toEqual([chunk]);
    stop();
    target.dispatchEvent(errorEvent(new Error("after stop"), "after stop"));
    await vi.advanceTimersByTimeAsync(ERROR_ALERT_DEBOUNCE_MS);
    expect(sent).toHaveLength(2);
  });
});

describe("chunk-load failures", () => {
  it("reads the type and URL of the failed file", () => {
    expect(chunkFailureOf(new TypeError("Failed to fetch dynamically imported module: https://h/assets/ResultsTable-x1.js"))).toEqual({
      type: "script",
      url: "https://h/assets/ResultsTable-x1.js",
      reason: "error",
    });
    expect(chunkFailureOf(new Error("Unable to preload CSS for /assets/chart-9f.css"))).toEqual({
      type: "stylesheet",
      url: "/assets/chart-9f.css",
      reason: "error",
    });
    expect(chunkFailureOf(new Error("boom"))).toBeNull();
    expect(isChunkLoadError("Loading chunk 3 failed.")).toBe(true);
    expect(chunkFailureText({ type: "script", url: "/assets/a.js", reason: "error" })).toBe("The script /assets/a.js could not be loaded.");
    expect(chunkFailureText({ type: "stylesheet", url: "/assets/a.css", reason: "timeout" })).toBe(
      "The stylesheet /assets/a.css did not load within 120 s.",
    );
  });

  /** Enough of a DOM for the watcher: elements as event targets, a MutationObserver fed by the test. */
  function fakeDom() {
    let feed: ((records: { addedNodes: unknown[] }[]) => void) | null = null;
    class FakeMutationObserver {
      constructor(callback: (records: { addedNodes: unknown[] }[]) => void) {
        feed = callback;
      }
      observe() {}
      disconnect() {
        feed = null;
      }
    }
    vi.stubGlobal("MutationObserver", FakeMutationObserver);
    const element = (tag: string, attributes: Record<string, string>) =>
      Object.assign(new EventTarget(), {
        nodeType: 1,
        tagName: tag.toUpperCase(),
        getAttribute: (name: string) => attributes[name] ?? null,
      });
    return { element, add: (...nodes: unknown[]) => feed?.([{ addedNodes: nodes }]) };
  }

  it("watches added scripts and stylesheets: an error or 120 s without loading is a failure", async () => {
    const dom = fakeDom();
    const failures: ChunkFailure[] = [];
    const stop = watchChunkLoads({} as Node, (f) => failures.push(f));
    const loads = dom.element("link", { rel: "modulepreload", href: "/assets/ok.js" });
    const fails = dom.element("link", { rel: "stylesheet", href: "/assets/broken.css" });
    const hangs = dom.element("script", { src: "/assets/hangs.js" });
    const other = dom.element("link", { rel: "icon", href: "/favicon.svg" });
    dom.add(loads, fails, hangs, other, { nodeType: 3 });
    loads.dispatchEvent(new Event("load"));
    fails.dispatchEvent(new Event("error"));
    expect(failures).toEqual([{ type: "stylesheet", url: "/assets/broken.css", reason: "error" }]);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(failures).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(failures).toEqual([
      { type: "stylesheet", url: "/assets/broken.css", reason: "error" },
      { type: "script", url: "/assets/hangs.js", reason: "timeout" },
    ]);
    // A late error of the timed-out script is not a second failure.
    hangs.dispatchEvent(new Event("error"));
    expect(failures).toHaveLength(2);
    stop();
    const late = dom.element("script", { src: "/assets/late.js" });
    dom.add(late);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS);
    expect(failures).toHaveLength(2);
  });
});
