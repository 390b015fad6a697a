import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadControlPlane } from "~/features/controlplane/screen.server";
import { ControlPlaneView } from "~/features/controlplane/ui/ControlPlaneView";
import { findToolRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { MODERN_BROWSER_HANDLE } from "~/lib/browser-support";

const PATH = "/controlplane";

/** Charts, pickers and tables need a supported browser: the incompatible-browser warning shows here. */
export const handle = MODERN_BROWSER_HANDLE;

export const meta: MetaFunction = () => [{ title: "Control Plane · flowlens" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user } = await requireUser(request, findToolRoute(PATH));
  return loadControlPlane(services, user.id, new URL(request.url));
}

export default function ControlPlane() {
  return <ControlPlaneView data={useLoaderData<typeof loader>()} path={PATH} />;
}
