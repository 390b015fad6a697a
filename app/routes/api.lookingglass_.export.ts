import { buildLookingGlassExport, ExportInputError } from "~/features/lookingglass/export.server";
import { requireLookingGlassVariant } from "~/features/routing/lookingglass.server";
import { ApiProblem, endpoint, resourceRoute } from "~/server/api/contract.server";

/**
 * GET api/lookingglass/export/?<the screen's search params>&format=…: the Looking Glass table of
 * that query as a file. The caller's variant decides vantage points, columns and formats (private:
 * csv, xls, xlsx, png; public: csv, xls, xlsx); `variant=public` asks for the public table even
 * when the caller could see the private one (the public page's links). 400 for an unsupported
 * format, a bad query, or "Table is empty, nothing to export".
 */
const route = resourceRoute({
  GET: endpoint({
    method: "GET",
    access: "public",
    handler: async ({ request, context, user }) => {
      const url = new URL(request.url);
      const granted = await requireLookingGlassVariant(context, user);
      const variant = url.searchParams.get("variant") === "public" ? "public" : granted;
      try {
        const file = await buildLookingGlassExport(context.services, {
          variant,
          url,
          request,
          format: url.searchParams.get("format") ?? "csv",
          user: variant === "private" ? user : null,
        });
        return new Response(file.body, {
          status: 200,
          headers: {
            "Content-Type": file.contentType,
            "Content-Disposition": `attachment; filename="${file.filename}"`,
            "Cache-Control": "no-store",
          },
        });
      } catch (error) {
        if (error instanceof ExportInputError) throw new ApiProblem(400, { detail: error.message });
        throw error;
      }
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
