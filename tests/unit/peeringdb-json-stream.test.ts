/**
 * The streaming reader of PeeringDB's JSON: the same objects whatever the chunk boundaries (every
 * split point of a dump, one character at a time), both shapes (a dump under the types' keys, a
 * per-object answer), other keys skipped, escapes in keys and strings, and malformed or truncated
 * text refused with where it went wrong.
 */
import { describe, expect, it } from "vitest";
import { JsonStreamError, PeeringDbJsonReader, type StreamEvent } from "~/features/routing/peeringdb/json-stream";

function read(chunks: string[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const reader = new PeeringDbJsonReader((e) => events.push(e));
  for (const c of chunks) reader.push(c);
  reader.end();
  return events;
}

const DUMP = JSON.stringify({
  net: {
    data: [
      { id: 1, asn: 64500, name: 'Ex "quoted" {net}', aka: "a\\b\n", info_prefixes4: 1.5e3, tags: [1, [2, { x: null }]] },
      { id: 2, asn: 64501, name: "Zweites Netz äöü €", policy_general: "Open", ok: true },
    ],
    meta: { generated: 1_790_000_000.5 },
  },
  "o\\u0072g": { data: [] },
  campus: { data: [{ id: 9, name: "skipped type, still handed over" }] },
  version: 2,
  other: [{ data: [{ id: 5 }] }],
  ix: { data: [{ id: 7, name: "IX [one]" }], extra: { data: "not a list here" } },
}).replace('"o\\\\u0072g"', '"o\\u0072g"');

describe("PeeringDbJsonReader", () => {
  it("hands over each element of each type's data list, and the meta objects", () => {
    const events = read([DUMP]);
    expect(events).toEqual([
      { type: "object", kind: "net", value: JSON.parse(DUMP).net.data[0] },
      { type: "object", kind: "net", value: JSON.parse(DUMP).net.data[1] },
      { type: "meta", kind: "net", value: { generated: 1_790_000_000.5 } },
      { type: "object", kind: "campus", value: { id: 9, name: "skipped type, still handed over" } },
      { type: "object", kind: "ix", value: { id: 7, name: "IX [one]" } },
    ]);
  });

  it("gives the same events whatever the chunk boundaries", () => {
    const whole = read([DUMP]);
    for (let cut = 1; cut < DUMP.length; cut++) expect(read([DUMP.slice(0, cut), DUMP.slice(cut)])).toEqual(whole);
    expect(read([...DUMP])).toEqual(whole);
  });

  it("reads a per-object API answer: the top-level data list has no type", () => {
    const answer = '{ "data" : [ {"id": 3, "asn": 1} , {"id": 4, "asn": 2} ],\n "meta": {} }';
    expect(read([answer])).toEqual([
      { type: "object", kind: null, value: { id: 3, asn: 1 } },
      { type: "object", kind: null, value: { id: 4, asn: 2 } },
      { type: "meta", kind: null, value: {} },
    ]);
  });

  it.each([
    ["", "The file is empty."],
    ["   ", "The file is empty."],
    ['[{"id": 1}]', "Not valid JSON at character 1: the file must hold a JSON object"],
    ['{"net": {"data": [{"id": 1}', "The file ends before its JSON does (at character 27): truncated?"],
    ['{"net": {"data": [{"id": 1}]}}}', "Not valid JSON at character 31: text after the end of the JSON."],
    ['{"net": {"data": {"id": 1}}}', 'Not valid JSON at character 18: "data" must be a list.'],
    ['{"net": {"data": [{"id": 1,}]}}', "Not valid JSON at character 28: a key (a string) expected."],
    ['{"net" {"data": []}}', "Not valid JSON at character 8: ':' expected after a key."],
    ['{"net": {"data": [{"id": 1} {"id": 2}]}}', "Not valid JSON at character 29: ',' or ']' expected."],
    ['{"net": {"data": [{"id": tru}]}}', "'tru' is not a value"],
    ['{"net": {"data": [{"id": 1, "name": "a\u0001"}]}}', "a control character inside a string"],
    ['{"x": nul}', "'nul' is not a value"],
  ])("refuses %j", (text, message) => {
    expect(() => read([text])).toThrow(JsonStreamError);
    expect(() => read([text])).toThrow(message);
  });
});
