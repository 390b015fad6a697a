import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { StoreUnavailableError } from "./clickhouse.server";

/**
 * The embedded stores allow one process at a time. A pid file in DATA_DIR makes a second
 * process stop with a clear message before it touches the PGlite or chDB files.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "flowlens.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(file, "utf8").trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new StoreUnavailableError(
          "PostgreSQL",
          `DATA_DIR ${dataDir} is in use by process ${owner}; the embedded stores allow one process at a time`,
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new StoreUnavailableError("PostgreSQL", `cannot lock DATA_DIR ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
