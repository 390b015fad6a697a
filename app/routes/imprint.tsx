import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPage } from "~/components/LegalPage";
import { LEGAL_PAGES } from "~/lib/legal-pages";
import { getServices } from "~/server/services.server";
import { legalPageText } from "~/server/settings/legal-pages.server";

/** /imprint: public (the footer links to it from every page, logged in or not). */
export async function loader(_args: LoaderFunctionArgs) {
  return legalPageText((await getServices()).pg.db, "imprint");
}

export const meta: MetaFunction = () => [{ title: `${LEGAL_PAGES.imprint.title} · flowlens` }];

export default function Imprint() {
  const page = useLoaderData<typeof loader>();
  return <LegalPage title={LEGAL_PAGES.imprint.title} {...page} />;
}
