import { createClient } from "@clickhouse/client";
import { createChdbConnection } from "chdb/connection";
const c = createClient({ connection: createChdbConnection({ path: "/tmp/fl-data/ch" }) as any });
await c.command({ query: "USE flowlens" });
for (const q of process.argv.slice(2)) {
  const t0 = performance.now();
  try { const rs = await c.query({ query: q, format: "JSONEachRow" }); console.log(JSON.stringify(await rs.json()).slice(0, 3000)); } catch (e: any) { console.log("ERR", e.message.slice(0, 300)); }
  console.log(((performance.now() - t0) / 1000).toFixed(2), "s");
}
await c.close();
