/**
 * Screen views in the usage tracking: sent only with consent given, as the screen's route path
 * (aliases under the tool's own path; no query, nothing for a route with path parameters), and the
 * failure path — a refused call or a network error — resolves {status: "error"} without throwing
 * and without a notice.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

const show = vi.fn();
vi.mock("@mantine/notifications", () => ({ notifications: { show }, showNotification: show }));

const { screenViewTarget, trackScreenView } = await import("~/lib/usage-tracking");

afterEach(() => show.mockClear());

describe("screen view tracking", () => {
  it("tracks the route path, never the URL", () => {
    expect(screenViewTarget("/links", false)).toBe("/core-planner");
    expect(screenViewTarget("/rna/", false)).toBe("/rna");
    expect(screenViewTarget("/site-settings/usage", false)).toBe("/site-settings/usage");
    expect(screenViewTarget("/manage-users/42", true)).toBeNull();
    expect(screenViewTarget("/a%20b", false)).toBeNull();
  });

  it("sends nothing without consent", async () => {
    const fetchImpl = vi.fn(async () => new Response("{}", { status: 200 }));
    expect(trackScreenView(false, "/rna", false, fetchImpl)).toBeNull();
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it("posts the target with consent", async () => {
    const fetchImpl = vi.fn(async (_url: string, _init: RequestInit) => new Response('{"status":"ok"}', { status: 200 }));
    expect(await trackScreenView(true, "/links", false, fetchImpl)).toEqual({ status: "ok" });
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const [url, init] = fetchImpl.mock.calls[0];
    expect(url).toBe("/usertracking/interaction/");
    expect(init.method).toBe("POST");
    expect(JSON.parse(String(init.body))).toEqual({ target: "/core-planner" });
  });

  it("reads the answer to the end, so the call does not stay open in the browser", async () => {
    for (const status of [200, 429]) {
      const response = new Response(status === 200 ? '{"status":"ok"}' : "{}", { status });
      await trackScreenView(true, "/rna", false, async () => response);
      expect(response.bodyUsed, String(status)).toBe(true);
    }
  });

  it("resolves {status: 'error'} on failure, without throwing and without a notice", async () => {
    for (const status of [400, 403, 429, 500])
      expect(await trackScreenView(true, "/rna", false, async () => new Response("{}", { status }))).toEqual({ status: "error" });
    expect(
      await trackScreenView(true, "/rna", false, async () => {
        throw new TypeError("Failed to fetch");
      }),
    ).toEqual({ status: "error" });
    expect(show).not.toHaveBeenCalled();
  });
});
