import { MantineProvider } from "@mantine/core";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NotFoundPage, StartupErrorPage } from "~/components/ErrorPages";
import { ToolError } from "~/components/ToolError";
import { MESSAGES } from "~/lib/messages";
import { isInterruptedConnection } from "~/lib/startup-error";

function render(element: JSX.Element): string {
  const router = createMemoryRouter([{ path: "/", element }]);
  return renderToString(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
}

describe("startup failure page", () => {
  it.each([
    ["application", "Application error", MESSAGES.serverError],
    ["network", MESSAGES.networkErrorTitle, MESSAGES.networkError],
    ["chunk", "Loading error", MESSAGES.chunkLoading],
  ] as const)("the %s variant has its heading, a Reload link to /, a support link and the debug information", (kind, heading, text) => {
    const html = render(<StartupErrorPage kind={kind} debug="TypeError: boom at 12:00" />);
    expect(html).toContain(`data-testid="startup-error-${kind}"`);
    expect(html).toContain(heading);
    expect(html).toContain(text.replace(/'/g, "&#x27;"));
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>.*Reload/s);
    // A plain link (no client routing: it works when the scripts did not load) to the support form, as a bug.
    expect(html).toMatch(/<a[^>]*href="\/support\?type=BUG"[^>]*>Contact support<\/a>/);
    expect(html).toContain("TypeError: boom at 12:00");
  });
});

describe("network failure of the running app", () => {
  it("reads 'Network error' with the interrupted text, not the start-up text", () => {
    const html = render(<StartupErrorPage kind="network" interrupted debug="TypeError: Failed to fetch" />);
    expect(html).toContain(MESSAGES.networkErrorTitle);
    expect(html).toContain("The network connection to the server was interrupted unexpectedly.");
    expect(html).not.toContain(MESSAGES.networkError);
  });

  it("a tool screen whose data did not arrive shows the network text and reloads the same address", () => {
    const html = render(
      <ToolError error={new TypeError("Failed to fetch")} title="Flow Explorer" path="/flow-explorer" startLabel="the form" />,
    );
    expect(html).toContain('data-testid="network-error"');
    expect(html).toContain("The network connection to the server was interrupted unexpectedly.");
    expect(html).toMatch(/href="\/"[^>]*>Reload the page/);
    const bug = render(
      <ToolError error={new TypeError("x is undefined")} title="Flow Explorer" path="/flow-explorer" startLabel="the form" />,
    );
    expect(bug).not.toContain("network-error");
    expect(bug).toContain("x is undefined");
  });

  it("a tool screen whose request was refused (a 400 with a detail) says why, not 'Unexpected error.'", () => {
    const refused = {
      status: 400,
      statusText: "Bad Request",
      internal: false,
      data: { detail: "q: Must not contain control characters such as NUL." },
    };
    const html = render(<ToolError error={refused} title="Users" path="/manage-users" startLabel="the list" />);
    expect(html).toContain("q: Must not contain control characters such as NUL.");
    expect(html).not.toContain("Unexpected error.");
  });

  it("tells a browser's lost connection from other failures", () => {
    expect(isInterruptedConnection(new TypeError("Failed to fetch"))).toBe(true);
    expect(isInterruptedConnection(new TypeError("NetworkError when attempting to fetch resource."))).toBe(true);
    expect(isInterruptedConnection(new TypeError("Load failed"))).toBe(true);
    expect(isInterruptedConnection(new Error("connect ECONNREFUSED 127.0.0.1:8123"))).toBe(false);
    expect(isInterruptedConnection(new TypeError("Cannot read properties of undefined"))).toBe(false);
  });
});

describe("not-found page", () => {
  it("has the spec's title and text and links back to the Flow Explorer", () => {
    const html = render(<NotFoundPage />);
    expect(html).toContain(MESSAGES.notFoundTitle);
    expect(html).toContain(MESSAGES.notFoundText);
    expect(html).toMatch(/href="\/flow-explorer"/);
  });
});
