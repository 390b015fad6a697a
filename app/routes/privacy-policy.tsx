import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPage } from "~/components/LegalPage";
import { LEGAL_PAGES } from "~/lib/legal-pages";
import { getServices } from "~/server/services.server";
import { legalPageText } from "~/server/settings/legal-pages.server";

/** /privacy-policy: public (the footer links to it from every page, logged in or not). */
export async function loader(_args: LoaderFunctionArgs) {
  return legalPageText((await getServices()).pg.db, "privacy-policy");
}

export const meta: MetaFunction = () => [{ title: `${LEGAL_PAGES["privacy-policy"].title} · flowlens` }];

export default function PrivacyPolicy() {
  const page = useLoaderData<typeof loader>();
  return <LegalPage title={LEGAL_PAGES["privacy-policy"].title} {...page} />;
}
