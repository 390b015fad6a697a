import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lockDataDir } from "~/server/data-dir-lock.server";

const dir = mkdtempSync(path.join(tmpdir(), "flowlens-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("DATA_DIR lock", () => {
  it("lets one process in, refuses another live one, and takes over a stale lock", async () => {
    const unlock = lockDataDir(dir);
    expect(existsSync(path.join(dir, "flowlens.pid"))).toBe(true);
    unlock();
    expect(existsSync(path.join(dir, "flowlens.pid"))).toBe(false);

    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      writeFileSync(path.join(dir, "flowlens.pid"), String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process ${other.pid}`));
    } finally {
      other.kill();
      await new Promise((resolve) => other.on("exit", resolve));
    }
    const again = lockDataDir(dir); // the owner is gone: stale
    again();
  });
});
