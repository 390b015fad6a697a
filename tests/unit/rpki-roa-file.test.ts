/**
 * VRP files as relying party software writes them: rpki-client's and Routinator's JSON, Routinator's
 * and the RIPE validator's CSV; and the refusals, naming the entry or line at fault.
 */
import { describe, expect, it } from "vitest";
import { MAX_LISTED_ERRORS, parseRoaFile, roaFileErrorText } from "~/features/routing/rpki/roa-file";

const refused = (text: string) => {
  const result = parseRoaFile(text);
  if (result.ok) throw new Error("expected a refusal");
  return result;
};
const accepted = (text: string) => {
  const result = parseRoaFile(text);
  if (!result.ok) throw new Error(`expected the file to be read: ${result.errors.join("; ")}`);
  return result;
};

describe("JSON", () => {
  it("reads rpki-client's output (numbers, metadata and expiry ignored)", () => {
    const result = accepted(
      JSON.stringify({
        metadata: { buildmachine: "rp.example.net", buildtime: "2026-11-20T10:00:00Z", roas: 2 },
        roas: [
          { asn: 13335, prefix: "1.1.1.0/24", maxLength: 24, ta: "apnic", expires: 1790000000 },
          { asn: 64500, prefix: "2001:DB8:0::/32", maxLength: 48, ta: "ripe", expires: 1790000000 },
        ],
        aspas: [],
      }),
    );
    expect(result.format).toBe("json");
    expect(result.vrps).toEqual([
      { prefix: "1.1.1.0/24", version: 4, length: 24, maxLength: 24, asn: 13335, trustAnchor: "apnic" },
      // The prefix in its canonical spelling.
      { prefix: "2001:db8::/32", version: 6, length: 32, maxLength: 48, asn: 64500, trustAnchor: "ripe" },
    ]);
  });

  it("reads Routinator's json ('AS' numbers) and jsonext (the trust anchor in source[].tal)", () => {
    expect(accepted('{"roas":[{"asn":"AS13335","prefix":"1.0.0.0/24","maxLength":24,"ta":"apnic"}]}').vrps).toEqual([
      { prefix: "1.0.0.0/24", version: 4, length: 24, maxLength: 24, asn: 13335, trustAnchor: "apnic" },
    ]);
    const ext = accepted(
      JSON.stringify({
        roas: [{ asn: "AS65001", prefix: "192.0.2.0/24", maxLength: 24, source: [{ type: "roa", uri: "rsync://x/y.roa", tal: "arin" }] }],
      }),
    );
    expect(ext.vrps[0]).toMatchObject({ asn: 65001, trustAnchor: "arin" });
  });

  it("takes an absent maxLength as the prefix length and counts repeated entries once", () => {
    const result = accepted(
      JSON.stringify({
        roas: [
          { asn: 64500, prefix: "192.0.2.0/24", ta: "ripe" },
          { asn: "AS64500", prefix: "192.0.2.0/24", maxLength: 24, ta: "ripe" },
          { asn: 64500, prefix: "192.0.2.0/24", maxLength: 24, ta: "arin" },
        ],
      }),
    );
    expect(result.entries).toBe(3);
    expect(result.duplicates).toBe(1);
    expect(result.vrps.map((v) => `${v.prefix} ${v.maxLength} ${v.asn} ${v.trustAnchor}`)).toEqual([
      "192.0.2.0/24 24 64500 ripe",
      "192.0.2.0/24 24 64500 arin",
    ]);
  });

  it("refuses bad entries, naming each by its position and prefix; nothing is taken", () => {
    const result = refused(
      JSON.stringify({
        roas: [
          { asn: 64500, prefix: "192.0.2.0/24", maxLength: 24, ta: "ripe" },
          { asn: 64500, prefix: "192.0.2.1/24", maxLength: 24, ta: "ripe" },
          { asn: 64500, prefix: "192.0.2.0/24", maxLength: 20, ta: "ripe" },
          { asn: 64500, prefix: "192.0.2.0/24", maxLength: 33, ta: "ripe" },
          { asn: "ASX", prefix: "192.0.2.0/24", maxLength: 24, ta: "ripe" },
          { asn: 4294967296, prefix: "192.0.2.0/24", maxLength: 24, ta: "ripe" },
          { asn: 64500, maxLength: 24, ta: "ripe" },
          "192.0.2.0/24",
          { asn: 64500, prefix: "2001:db8::/129", ta: "ripe" },
          { asn: 64500, prefix: "192.0.2.0", ta: "ripe" },
        ],
      }),
    );
    expect(result.errorCount).toBe(9);
    expect(result.errors).toEqual([
      'roas entry 2 (192.0.2.1/24): prefix "192.0.2.1/24" has host bits set (the network is 192.0.2.0/24)',
      "roas entry 3 (192.0.2.0/24): maxLength 20 is shorter than the prefix length 24",
      "roas entry 4 (192.0.2.0/24): maxLength 33 is longer than an IPv4 address (32)",
      'roas entry 5 (192.0.2.0/24): AS number "ASX" is not a number or "AS" and a number',
      "roas entry 6 (192.0.2.0/24): AS number 4294967296 is not from 0 to 4294967295",
      "roas entry 7: the prefix is missing",
      "roas entry 8: not an object",
      'roas entry 9 (2001:db8::/129): prefix "2001:db8::/129": the length must be 0 to 128',
      'roas entry 10 (192.0.2.0): prefix "192.0.2.0" has no length (e.g. 192.0.2.0/24)',
    ]);
  });

  it("refuses what is not such a file: broken JSON (with its position), no roas list, no entries", () => {
    expect(refused('{"roas": [{"asn": 1,}]}').errors[0]).toMatch(/^Not valid JSON: .*position/);
    expect(refused('{"vrps": []}').errors).toEqual([
      'The JSON has no "roas" list: expected {"roas": [{"asn": …, "prefix": …, "maxLength": …, "ta": …}]}.',
    ]);
    expect(refused("[1, 2]").errors[0]).toContain('no "roas" list');
    expect(refused('{"roas": []}').errors).toEqual(["The file holds no ROAs."]);
    expect(refused("   ").errors).toEqual(["The file is empty."]);
  });

  it("lists the first problems and counts the rest", () => {
    const roas = Array.from({ length: 30 }, (_, i) => ({ asn: 64500, prefix: `10.0.${i}.1/24`, maxLength: 24 }));
    const result = refused(JSON.stringify({ roas }));
    expect(result.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(result.errorCount).toBe(30);
    expect(roaFileErrorText(result).split("\n").at(-1)).toBe("… and 10 more problems.");
  });
});

describe("CSV", () => {
  it("reads Routinator's csv", () => {
    const result = accepted("ASN,IP Prefix,Max Length,Trust Anchor\nAS13335,1.0.0.0/24,24,apnic\nAS64500,2001:db8::/32,48,ripe\n");
    expect(result.format).toBe("csv");
    expect(result.vrps).toEqual([
      { prefix: "1.0.0.0/24", version: 4, length: 24, maxLength: 24, asn: 13335, trustAnchor: "apnic" },
      { prefix: "2001:db8::/32", version: 6, length: 32, maxLength: 48, asn: 64500, trustAnchor: "ripe" },
    ]);
  });

  it("reads the RIPE validator's quoted CSV with CRLF, a byte order mark, other column orders and no trust anchor", () => {
    const ripe = accepted('\uFEFF"ASN","IP Prefix","Max Length","Trust Anchor"\r\n"AS13335","1.0.0.0/24","24","APNIC RPKI Root"\r\n');
    expect(ripe.vrps).toEqual([
      { prefix: "1.0.0.0/24", version: 4, length: 24, maxLength: 24, asn: 13335, trustAnchor: "APNIC RPKI Root" },
    ]);
    const reordered = accepted("IP Prefix,ASN\n192.0.2.0/24,64500\n\n# a comment\n");
    expect(reordered.vrps).toEqual([{ prefix: "192.0.2.0/24", version: 4, length: 24, maxLength: 24, asn: 64500, trustAnchor: "" }]);
  });

  it("refuses bad lines by number, a file without the header, and binary data", () => {
    const result = refused(
      'ASN,IP Prefix,Max Length,Trust Anchor\nAS1,192.0.2.0/24,24,ripe\nAS1,192.0.2.0/24,x,ripe\n\nAS1,300.0.2.0/24,24,ripe\n"AS1,192.0.2.0/24,24\n',
    );
    expect(result.errors).toEqual([
      'line 3: maxLength "x" is not a whole number',
      'line 5: "300.0.2.0/24" is not an IPv4 or IPv6 prefix',
      "line 6: a quoted value is not closed",
    ]);
    expect(refused("prefix;asn\n192.0.2.0/24;64500\n").errors[0]).toMatch(
      /^line 1: expected the header "ASN,IP Prefix,Max Length,Trust Anchor"/,
    );
    expect(refused("ASN,IP Prefix,Max Length\n").errors).toEqual(["The file holds no ROAs."]);
    expect(refused("AS\u0000\u0001binary").errors).toEqual(["This is not a text file (JSON or CSV)."]);
  });
});
