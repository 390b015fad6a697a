/**
 * The public Looking Glass's own script, inlined in its page instead of the app's runtime (the page
 * does not hydrate: app/lib/page-scripts.ts). The page is the server's plain GET form and its
 * answer; this script adds only what the spec asks of the browser:
 *
 * - the progress bar (spec §4): from 0, every 100 ms by 100 / T % of the bar (T the server's
 *   time-out for the query type), each step 1 % smaller than the one before, held below 100 %,
 *   stopped when the status leaves Pending — the same rule as progress.ts, which the private screen
 *   uses (tests/e2e/public-lookingglass-script.e2e.ts compares the two);
 * - the submit rules (spec §2): disabled while a request is pending or when no vantage point is
 *   selected;
 * - select-all with its indeterminate state, Abort (stops the page load: Aborted, the bar reset),
 *   and a change of query type resetting the status and clearing the output.
 *
 * "Pending" is the browser loading the form's answer: the submit starts the bar and the page that
 * arrives replaces it. Ping/traceroute pages that refresh themselves while jobs run carry the bar
 * over (sessionStorage), so it does not restart at every refresh.
 *
 * `publicLookingGlassPage` is serialised with Function.prototype.toString: it must not use anything
 * from outside its own body (no imports, no helpers of this module).
 */
import { PROGRESS_CAP_PERCENT, PROGRESS_TICK_MS, PROGRESS_TIMEOUT_SECONDS, STEP_SHRINK } from "../progress";

export type PublicPageScriptConfig = {
  tickMs: number;
  shrink: number;
  capPercent: number;
  defaultTimeoutSeconds: number;
  /** Per query type, the server's time-out in seconds. */
  timeouts: Readonly<Record<string, number>>;
  /** The status badge's words for the states the script sets. */
  labels: { IDLE: string; PENDING: string; ABORTED: string };
};

/** The hooks the script finds in the server's markup (LookingGlassScreen, LookingGlassForm). */
export const SCRIPT_HOOKS = {
  abort: "data-lg-abort",
  beforeSubmit: "data-lg-before-submit",
  progress: "lookingglass-progress",
} as const;

function publicLookingGlassPage(config: PublicPageScriptConfig): void {
  const form = document.querySelector<HTMLFormElement>("form[data-testid=lookingglass-form]");
  const bar = document.querySelector<HTMLElement>("[data-testid=lookingglass-progress] [role=progressbar]");
  const badge = document.querySelector<HTMLElement>("[data-testid=lookingglass-status]");
  const results = document.querySelector<HTMLElement>("[data-testid=lookingglass-results]");
  const abort = document.querySelector<HTMLElement>("[data-lg-abort]");
  const beforeSubmit = document.querySelector<HTMLTemplateElement>("template[data-lg-before-submit]");
  if (!form || !bar || !badge || !results) return;
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]");
  const typeSelect = form.querySelector<HTMLSelectElement>("select[name=queryType]");
  const boxes = Array.from(form.querySelectorAll<HTMLInputElement>("input[type=checkbox][name=selectedVantagePoints]"));
  const all = boxes.find((b) => b.value === "all") ?? null;
  const points = boxes.filter((b) => b !== all);
  const label = badge.querySelector<HTMLElement>(".mantine-Badge-label") ?? badge;
  const STORE = "flowlens-lg-progress";
  // Storage may be refused (a privacy setting): the bar then starts again on a refreshed page, nothing else changes.
  const stored = {
    get: (): string | null => {
      try {
        return sessionStorage.getItem(STORE);
      } catch {
        return null;
      }
    },
    set: (value: string | null) => {
      try {
        if (value === null) sessionStorage.removeItem(STORE);
        else sessionStorage.setItem(STORE, value);
      } catch {
        // nothing to carry over then
      }
    },
  };

  let pending = badge.getAttribute("data-status") === "PENDING";
  let timer: number | undefined;
  let percent = Number(bar.getAttribute("aria-valuenow")) || 0;
  let step = 0;
  const initial = { status: badge.getAttribute("data-status") ?? "IDLE", label: label.textContent ?? "", percent };

  const show = (value: number, running: boolean) => {
    bar.style.setProperty("--progress-section-width", `${value}%`);
    bar.setAttribute("aria-valuenow", String(value));
    bar.setAttribute("aria-valuetext", `${value}%`);
    for (const name of ["data-striped", "data-animated"]) {
      if (running) bar.setAttribute(name, "true");
      else bar.removeAttribute(name);
    }
  };
  const setStatus = (name: string, text: string) => {
    badge.setAttribute("data-status", name);
    label.textContent = text;
  };
  const updateSubmit = () => {
    if (!submit) return;
    const disabled = pending || !points.some((b) => b.checked);
    submit.disabled = disabled;
    if (disabled) submit.setAttribute("data-disabled", "true");
    else submit.removeAttribute("data-disabled");
  };
  const updateAll = () => {
    if (!all) return;
    const checked = points.filter((b) => b.checked).length;
    all.checked = points.length > 0 && checked === points.length;
    all.indeterminate = checked > 0 && checked < points.length;
    if (all.indeterminate) all.setAttribute("data-indeterminate", "true");
    else all.removeAttribute("data-indeterminate");
  };
  const stop = () => {
    if (timer !== undefined) window.clearInterval(timer);
    timer = undefined;
  };
  const run = (from: { percent: number; step: number }) => {
    stop();
    pending = true;
    percent = from.percent;
    step = from.step;
    show(percent, true);
    if (abort) abort.hidden = false;
    updateSubmit();
    timer = window.setInterval(() => {
      percent = Math.min(config.capPercent, percent + step);
      step *= 1 - config.shrink;
      show(percent, true);
    }, config.tickMs);
  };
  const settle = (status: string, text: string, value: number) => {
    stop();
    pending = false;
    show(value, false);
    setStatus(status, text);
    if (abort) abort.hidden = true;
    updateSubmit();
  };
  const firstStep = (queryType: string) => {
    const seconds = config.timeouts[queryType];
    return 100 / (Number.isFinite(seconds) && seconds > 0 ? seconds : config.defaultTimeoutSeconds);
  };

  all?.addEventListener("change", () => {
    for (const b of points) b.checked = all.checked;
    updateAll();
    updateSubmit();
  });
  for (const b of points)
    b.addEventListener("change", () => {
      updateAll();
      updateSubmit();
    });
  form.addEventListener("submit", (event) => {
    if (pending || !points.some((b) => b.checked)) {
      event.preventDefault();
      return;
    }
    // The browser loads the answer; until it arrives the request is pending.
    setStatus("PENDING", config.labels.PENDING);
    run({ percent: 0, step: firstStep(typeSelect?.value ?? "") });
  });
  abort?.addEventListener("click", () => {
    window.stop();
    stored.set(null);
    settle("ABORTED", config.labels.ABORTED, 0);
  });
  typeSelect?.addEventListener("change", () => {
    if (pending) window.stop();
    settle("IDLE", config.labels.IDLE, 0);
    if (beforeSubmit) results.replaceChildren(beforeSubmit.content.cloneNode(true));
  });
  // Leaving while pending (the answer is arriving, or ping/traceroute jobs refresh the page): the next page carries the bar on.
  window.addEventListener("pagehide", () => {
    if (pending) stored.set(JSON.stringify({ percent, step, at: Date.now() }));
  });
  // Back to this page from the browser's cache: it shows again what the server sent.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    stored.set(null);
    settle(initial.status, initial.label, initial.percent);
  });

  updateAll();
  let carried: { percent?: unknown; step?: unknown; at?: unknown } | null = null;
  try {
    carried = JSON.parse(stored.get() ?? "null");
  } catch {
    carried = null;
  }
  stored.set(null);
  if (pending) {
    // Jobs still running on the server: the bar goes on from where the previous page left it (if that was a moment ago).
    const fresh =
      carried !== null &&
      typeof carried.percent === "number" &&
      typeof carried.step === "number" &&
      typeof carried.at === "number" &&
      Date.now() - carried.at < 30_000;
    run(
      fresh
        ? { percent: carried!.percent as number, step: carried!.step as number }
        : { percent: 0, step: firstStep(typeSelect?.value ?? "") },
    );
  } else updateSubmit();
}

/** The script's source for the page, with the server's time-outs per query type. */
export function publicPageScript(timeouts: Readonly<Record<string, number>>, labels: PublicPageScriptConfig["labels"]): string {
  const config: PublicPageScriptConfig = {
    tickMs: PROGRESS_TICK_MS,
    shrink: STEP_SHRINK,
    capPercent: PROGRESS_CAP_PERCENT,
    defaultTimeoutSeconds: PROGRESS_TIMEOUT_SECONDS,
    timeouts,
    labels,
  };
  // "<" escaped: the JSON sits inside a <script> element.
  return `(${publicLookingGlassPage.toString()})(${JSON.stringify(config).replace(/</g, "\\u003c")});`;
}
