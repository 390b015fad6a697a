/**
 * The "Community labels" section of /site-settings/routing-data: the list, one label open for
 * editing (`?edit_label=<id>`), and the POST forms — one `intent` each (create-label,
 * update-label, delete-label) — answered by a redirect with `saved=<what>` (PRG), or a 400 with
 * the messages next to the fields and the values as typed.
 */
import { data, redirect } from "@remix-run/node";
import { readProtectedForm } from "~/server/auth/guard.server";
import { clientAddress } from "~/server/auth/session.server";
import type { Services } from "~/server/services.server";
import {
  CommunityLabelInputError,
  CommunityLabelMissingError,
  createCommunityLabel,
  deleteCommunityLabel,
  listCommunityLabels,
  updateCommunityLabel,
} from "./community-labels.server";
import { COMMUNITY_LABELS_ANCHOR, EDIT_LABEL_PARAM, ROUTING_DATA_PATH } from "./community-labels";
import { parseInt32Id } from "~/lib/input-fields";

export type CommunityLabelIntent = "create-label" | "update-label" | "delete-label";
export const COMMUNITY_LABEL_INTENTS: readonly CommunityLabelIntent[] = ["create-label", "update-label", "delete-label"];

const SAVED: Record<string, string> = {
  "label-created": "The community label was added.",
  "label-updated": "The community label was saved.",
  "label-deleted": "The community label was deleted.",
};

export async function loadCommunityLabelsSection(services: Pick<Services, "pg">, url: URL) {
  const labels = await listCommunityLabels(services.pg.db);
  const asked = url.searchParams.get(EDIT_LABEL_PARAM);
  const editing = asked === null ? null : (labels.find((l) => String(l.id) === asked) ?? null);
  const saved = url.searchParams.get("saved");
  return {
    labels,
    editing,
    missing: asked !== null && editing === null ? new CommunityLabelMissingError().message : null,
    savedMessage: saved ? (SAVED[saved] ?? null) : null,
  };
}

export type CommunityLabelsSection = Awaited<ReturnType<typeof loadCommunityLabelsSection>>;

export type CommunityLabelActionResult = {
  intent: CommunityLabelIntent | "";
  errors: Record<string, string>;
  values: Record<string, string>;
};

const back = (saved: string) => redirect(`${ROUTING_DATA_PATH}?saved=${saved}#${COMMUNITY_LABELS_ANCHOR}`);

/** One POST of the section (CSRF checked by readProtectedForm). */
export async function saveCommunityLabels(services: Pick<Services, "pg">, user: { id: number; email: string }, request: Request) {
  const form = await readProtectedForm(request);
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && key !== "csrfmiddlewaretoken") values[key] = value;
  const intent = (COMMUNITY_LABEL_INTENTS as readonly string[]).includes(values.intent ?? "")
    ? (values.intent as CommunityLabelIntent)
    : "";
  const refuse = (errors: Record<string, string>, status = 400) => data<CommunityLabelActionResult>({ intent, errors, values }, { status });
  const change = { actor: user, clientAddress: clientAddress(request) };
  const id = parseInt32Id(values.id);
  const input = { pattern: values.pattern ?? "", label: values.label ?? "" };
  try {
    switch (intent) {
      case "create-label":
        await createCommunityLabel(services.pg.db, input, change);
        return back("label-created");
      case "update-label":
        if (id === null) return refuse({ "": new CommunityLabelMissingError().message }, 404);
        await updateCommunityLabel(services.pg.db, id, input, change);
        return back("label-updated");
      case "delete-label":
        if (id === null) return refuse({ "": new CommunityLabelMissingError().message }, 404);
        await deleteCommunityLabel(services.pg.db, id, change);
        return back("label-deleted");
      default:
        return refuse({ "": "Unknown action." });
    }
  } catch (error) {
    if (error instanceof CommunityLabelInputError) return refuse(error.errors);
    if (error instanceof CommunityLabelMissingError) return refuse({ "": error.message }, 404);
    throw error;
  }
}
