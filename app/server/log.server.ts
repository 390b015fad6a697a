/** Minimal structured-enough logger: one line per event, level-filtered by LOG_LEVEL. */
const LEVELS = ["debug", "info", "warn", "error"] as const;
type Level = (typeof LEVELS)[number];

function threshold(): number {
  const configured = (process.env.LOG_LEVEL ?? "info") as Level;
  const index = LEVELS.indexOf(configured);
  return index < 0 ? 1 : index;
}

function write(level: Level, message: string) {
  if (LEVELS.indexOf(level) < threshold()) return;
  const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}`;
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const log = {
  debug: (message: string) => write("debug", message),
  info: (message: string) => write("info", message),
  warn: (message: string) => write("warn", message),
  error: (message: string) => write("error", message),
};
