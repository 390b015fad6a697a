import { Title } from "@mantine/core";
import type { PrivateLookingGlassData } from "../private-page.server";
import { LookingGlassScreen } from "./LookingGlassScreen";

/** The Looking Glass inside the app's frame: its heading, then the screen shared with the public page. */
export function PrivateLookingGlassView({ data, path }: { data: PrivateLookingGlassData; path: string }) {
  const { page, rna, tableState } = data;
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Looking Glass
      </Title>
      <LookingGlassScreen page={page} path={path} exportPath="/api/lookingglass/export/" tableState={tableState} rna={rna} />
    </>
  );
}
