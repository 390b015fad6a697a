import { REQUEST_HISTORY_SIZE } from "./constants";

/**
 * The request history of the browser (spec: the 30 most recent calls with body, data, headers,
 * method, params, path, timestamp, uid, url and verbose name), shared by every API client of the
 * tab and read in the developer panel (/settings/request-history, DEVELOPER_API_TOKEN). Kept in
 * memory only. Credentials are never kept: the CSRF header, cookies and any Authorization header
 * are dropped from the headers before an entry is stored.
 */
export type HistoryEntry = {
  body: unknown;
  data: unknown;
  headers: Record<string, string>;
  method: string;
  params: Record<string, string>;
  path: string;
  timestamp: number;
  uid: string;
  url: string;
  verboseName: string;
};

const SECRET_HEADERS = new Set(["x-csrftoken", "cookie", "authorization"]);

/** The headers of a call as the history keeps them: without the CSRF header, cookies or a token. */
export function historyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !SECRET_HEADERS.has(name.toLowerCase())));
}

export class RequestHistory {
  private entries: HistoryEntry[] = [];
  private listeners = new Set<() => void>();
  constructor(readonly size = REQUEST_HISTORY_SIZE) {}

  /** Keeps a call as the newest entry (its credentials dropped); the oldest beyond the cap go. */
  add(entry: HistoryEntry): void {
    this.entries = [{ ...entry, headers: historyHeaders(entry.headers) }, ...this.entries].slice(0, this.size);
    for (const listener of this.listeners) listener();
  }

  /** The entries, newest first (the same array until the next call is kept: usable with useSyncExternalStore). */
  list(): readonly HistoryEntry[] {
    return this.entries;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.entries = [];
    for (const listener of this.listeners) listener();
  }
}

/** The tab's history: every API client records into it unless given its own. */
export const browserRequestHistory = new RequestHistory();

/** A word for a POSIX shell: single-quoted, a single quote inside written as '\''. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The call as a curl command for a terminal: the same method, URL (with its query) and JSON body,
 * the kept headers, and `Authorization: Token $FLOWLENS_TOKEN` in place of the session — the token
 * is read from the shell's environment, never written into the command.
 */
export function curlOf(entry: HistoryEntry, origin: string): string {
  const parts = ["curl", "-sS"];
  if (entry.method !== "GET") parts.push("-X", shellQuote(entry.method));
  for (const [name, value] of Object.entries(historyHeaders(entry.headers))) parts.push("-H", shellQuote(`${name}: ${value}`));
  parts.push("-H", '"Authorization: Token $FLOWLENS_TOKEN"');
  if (entry.method !== "GET" && entry.body !== null && entry.body !== undefined)
    parts.push("--data-raw", shellQuote(JSON.stringify(entry.body)));
  parts.push(shellQuote(new URL(entry.url, origin).toString()));
  return parts.join(" ");
}
