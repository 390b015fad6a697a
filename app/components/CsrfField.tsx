import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/** The hidden CSRF field every form that posts must carry (checked by verifyCsrfForm). */
export function CsrfField() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return <input type="hidden" name="csrfmiddlewaretoken" value={root?.csrfToken ?? ""} />;
}
