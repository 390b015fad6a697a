/**
 * A streaming reader of PeeringDB's JSON: the per-object API answer (`{"data": [...], "meta": {...}}`)
 * or one file holding several under the object types' keys (`{"net": {"data": [...]}, "ix": {...}}`).
 * Text is fed in chunks of any size; each element of a `data` list is handed over as soon as it
 * ends, parsed on its own, so a dump of 100 MB never sits in memory whole. The structure around the
 * lists is checked as it goes (a truncated or malformed file is refused with the position).
 * Pure: no I/O.
 */

export class JsonStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonStreamError";
  }
}

/** What the reader meets: an element of a data list (`kind` as the key above it gave, null for a top-level list), or a `meta` object. */
export type StreamEvent = { type: "object"; kind: string | null; value: unknown } | { type: "meta"; kind: string | null; value: unknown };

/** Where a value sits, which decides whether it is handed over. */
type Role = "root" | "kindObject" | "dataList" | "skip";

type Frame = {
  container: "object" | "array";
  role: Role;
  /** The object type this frame belongs to (the top-level key above it), null at the top. */
  kind: string | null;
  /** object: key → colon → value → comma or end; array: value → comma or end. */
  expect: "keyOrEnd" | "key" | "colon" | "value" | "valueOrEnd" | "commaOrEnd";
  key: string | null;
};

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

export class PeeringDbJsonReader {
  private stack: Frame[] = [];
  private done = false;
  private started = false;
  /** Inside a string: its text so far (kept only for keys), and whether the last character was a backslash. */
  private inString = false;
  private escape = false;
  private stringIsKey = false;
  private keyParts: string[] = [];
  /** A literal (number, true, false, null) being read. */
  private literal: string | null = null;
  /** The value being captured whole: the stack depth it started at, its text so far, and what it is. */
  private capture: { depth: number; parts: string[]; event: "object" | "meta"; kind: string | null } | null = null;
  private captureStart = -1;
  private position = 0;

  constructor(private readonly emit: (event: StreamEvent) => void) {}

  /** Reads the next piece of the text. */
  push(chunk: string): void {
    if (this.capture) this.captureStart = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === "\\") this.escape = true;
        else if (c === '"') {
          this.inString = false;
          if (this.stringIsKey) {
            this.keyParts.push(chunk.slice(this.keyStart, i));
            this.endKey(this.keyParts.join(""));
          } else this.endValue(chunk, i + 1);
          continue;
        } else if (c < " ") this.fail(`a control character inside a string`, i);
        continue;
      }
      if (this.literal !== null) {
        if (/[0-9a-zA-Z+\-.]/.test(c)) {
          this.literal += c;
          continue;
        }
        this.endLiteral(chunk, i);
      }
      if (WHITESPACE.has(c)) continue;
      if (this.done) this.fail("text after the end of the JSON", i);
      this.token(c, chunk, i);
    }
    if (this.inString && this.stringIsKey) {
      this.keyParts.push(chunk.slice(this.keyStart));
      this.keyStart = 0;
    }
    if (this.capture && this.captureStart >= 0) this.capture.parts.push(chunk.slice(this.captureStart));
    this.position += chunk.length;
    this.keyStart = 0;
  }

  /** The text is complete: refuses one that stops before its JSON does. */
  end(): void {
    if (this.literal !== null) this.fail("a value at the top that is not an object", 0);
    if (!this.started) throw new JsonStreamError("The file is empty.");
    if (!this.done || this.inString)
      throw new JsonStreamError(`The file ends before its JSON does (at character ${this.position.toLocaleString("en-US")}): truncated?`);
  }

  private keyStart = 0;

  private fail(what: string, index: number): never {
    throw new JsonStreamError(`Not valid JSON at character ${(this.position + index + 1).toLocaleString("en-US")}: ${what}.`);
  }

  private get top(): Frame | undefined {
    return this.stack[this.stack.length - 1];
  }

  private token(c: string, chunk: string, i: number) {
    const frame = this.top;
    if (frame?.container === "object") {
      if (frame.expect === "keyOrEnd" || frame.expect === "key") {
        if (c === "}" && frame.expect === "keyOrEnd") return this.close(chunk, i);
        if (c !== '"') this.fail("a key (a string) expected", i);
        this.inString = true;
        this.stringIsKey = true;
        this.keyParts = [];
        this.keyStart = i + 1;
        return;
      }
      if (frame.expect === "colon") {
        if (c !== ":") this.fail("':' expected after a key", i);
        frame.expect = "value";
        return;
      }
      if (frame.expect === "commaOrEnd") {
        if (c === ",") frame.expect = "key";
        else if (c === "}") this.close(chunk, i);
        else this.fail("',' or '}' expected", i);
        return;
      }
    } else if (frame?.container === "array") {
      if (frame.expect === "commaOrEnd") {
        if (c === ",") frame.expect = "value";
        else if (c === "]") this.close(chunk, i);
        else this.fail("',' or ']' expected", i);
        return;
      }
      if (c === "]" && frame.expect === "valueOrEnd") return this.close(chunk, i);
    }
    this.startValue(c, chunk, i);
  }

  /** The role of a value starting here, from its parent and the key above it. */
  private roleHere(): { role: Role | "element" | "meta"; kind: string | null } {
    const frame = this.top;
    if (!frame) return { role: "root", kind: null };
    if (this.capture) return { role: "skip", kind: frame.kind };
    if (frame.role === "dataList") return { role: "element", kind: frame.kind };
    if (frame.role === "root") {
      if (frame.key === "data") return { role: "dataList", kind: null };
      if (frame.key === "meta") return { role: "meta", kind: null };
      return { role: "kindObject", kind: frame.key };
    }
    if (frame.role === "kindObject") {
      if (frame.key === "data") return { role: "dataList", kind: frame.kind };
      if (frame.key === "meta") return { role: "meta", kind: frame.kind };
    }
    return { role: "skip", kind: frame.kind };
  }

  private startValue(c: string, chunk: string, i: number) {
    const { role, kind } = this.roleHere();
    if (role === "root") {
      if (c !== "{") this.fail('the file must hold a JSON object (PeeringDB\'s {"data": [...]} or {"net": {"data": [...]}, ...})', i);
      this.started = true;
    }
    if (role === "dataList" && c !== "[") this.fail(`"data" must be a list`, i);
    if (role === "element" || role === "meta") {
      this.capture = { depth: this.stack.length, parts: [], event: role === "element" ? "object" : "meta", kind };
      this.captureStart = i;
    }
    if (c === "{" || c === "[") {
      this.stack.push({
        container: c === "{" ? "object" : "array",
        role: role === "element" || role === "meta" ? "skip" : role,
        kind,
        expect: c === "{" ? "keyOrEnd" : "valueOrEnd",
        key: null,
      });
      return;
    }
    if (c === '"') {
      this.inString = true;
      this.stringIsKey = false;
      return;
    }
    if (/[-0-9tfn]/.test(c)) {
      this.literal = c;
      return;
    }
    this.fail(`unexpected '${c}'`, i);
  }

  private endKey(key: string) {
    const frame = this.top!;
    try {
      frame.key = JSON.parse(`"${key}"`) as string;
    } catch {
      this.fail("a key with a bad escape", 0);
    }
    frame.expect = "colon";
  }

  private endLiteral(chunk: string, end: number) {
    const text = this.literal!;
    this.literal = null;
    if (!LITERAL.test(text)) this.fail(`'${text.slice(0, 20)}' is not a value`, end - 1);
    this.endValue(chunk, end);
  }

  private close(chunk: string, i: number) {
    this.stack.pop();
    this.endValue(chunk, i + 1);
  }

  /** A value ended (its last character is before `end`): hand it over if it was captured, then move the parent on. */
  private endValue(chunk: string, end: number) {
    if (this.capture && this.capture.depth === this.stack.length) {
      this.capture.parts.push(chunk.slice(this.captureStart, end));
      const { parts, event, kind } = this.capture;
      this.capture = null;
      this.captureStart = -1;
      let value: unknown;
      try {
        value = JSON.parse(parts.join(""));
      } catch (error) {
        this.fail(`an entry that is not valid JSON (${(error as Error).message})`, end - 1);
      }
      this.emit({ type: event, kind, value });
    }
    const frame = this.top;
    if (!frame) {
      this.done = true;
      return;
    }
    frame.expect = "commaOrEnd";
  }
}
