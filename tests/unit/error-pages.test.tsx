import { MantineProvider } from "@mantine/core";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NotFoundPage, StartupErrorPage } from "~/components/ErrorPages";
import { MESSAGES } from "~/lib/messages";

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
  ] as const)("the %s variant has its heading, a Reload link to / and the debug information", (kind, heading, text) => {
    const html = render(<StartupErrorPage kind={kind} debug="TypeError: boom at 12:00" />);
    expect(html).toContain(`data-testid="startup-error-${kind}"`);
    expect(html).toContain(heading);
    expect(html).toContain(text.replace(/'/g, "&#x27;"));
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>.*Reload/s);
    expect(html).toContain("TypeError: boom at 12:00");
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
