/**
 * Where the app may send a browser after a step (login, the second factor, consent, the group
 * switcher …) when the destination came from the request. Only paths of this site: the value is
 * parsed as a URL against a placeholder origin and kept only when the origin is still that one,
 * so every trick a browser would resolve elsewhere (`//evil`, `/\evil`, `/<TAB>/evil`,
 * `https:evil`, `javascript:`) falls back to the caller's default.
 */
const PLACEHOLDER_ORIGIN = "http://flowlens.invalid";
const MAX_LENGTH = 2048;

// Browsers drop tab, CR and LF inside URLs, so "/\t/evil.example" would become "//evil.example".

const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/;

export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}

/** A same-origin path (with search and hash, percent-encoded as a Location header needs), or null. */
export function safeNext(next: string | null | undefined): string | null {
  if (!next || next.length > MAX_LENGTH || hasControlCharacters(next) || !next.startsWith("/")) return null;
  let url: URL;
  try {
    url = new URL(next, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  const target = url.pathname + url.search + url.hash;
  // "/.//evil" normalises to the path "//evil", which a browser reads as another host.
  return /^\/[/\\]/.test(target) ? null : target;
}

/** The URL fragment a script copied into a form ("#…"), encoded; anything else: "". */
export function safeFragment(hash: string | null | undefined): string {
  if (!hash || !hash.startsWith("#") || hash.length > MAX_LENGTH || hasControlCharacters(hash)) return "";
  return new URL(`/${hash}`, PLACEHOLDER_ORIGIN).hash;
}

/** `next` plus the fragment, or the fallback when there is no safe `next`. */
export function redirectTarget(next: string | null | undefined, hash: string | null | undefined, fallback: string): string {
  const path = safeNext(next);
  return path ? path + safeFragment(hash) : fallback;
}
