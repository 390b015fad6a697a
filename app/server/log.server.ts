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

/**
 * A value from a request made safe for one log line: line breaks, other control characters and
 * Unicode line separators written as escapes (\n, \x1b, \u2028), so no one can forge a line of
 * their own; cut after `max` characters with a note of how many more there were.
 */
export function logValue(text: string, max = 300): string {
  const cut = text.length > max ? text.slice(0, max) : text;

  const escaped = cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    const code = c.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\x${code.toString(16).padStart(2, "0")}`;
  });
  return text.length > max ? `${escaped}… (${text.length - max} more characters)` : escaped;
}
