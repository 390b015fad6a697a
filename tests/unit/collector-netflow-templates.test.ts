import { describe, expect, it } from "vitest";
import { decodeDatagram, TemplateState } from "~/features/collector/decode";
import { encodeIpfix, IE, type IpfixMessage, type TemplateSpec } from "../fixtures/flow-encoders";

const EXPORTER = "192.0.2.77";
const template = (id: number): TemplateSpec => ({
  id,
  fields: [
    { id: IE.octetDeltaCount, length: 4 },
    { id: IE.packetDeltaCount, length: 4 },
  ],
});
const message = (sets: IpfixMessage["sets"], domain = 1) => encodeIpfix({ exportTime: 1_700_000_000, domain, sets });
const data = (id: number, bytes = 1) => message([{ kind: "data", template: template(id), records: [[bytes, 1]] }]);

describe("template state bounds", () => {
  it("evicts the oldest template beyond its cap and counts it", () => {
    const state = new TemplateState({ maxTemplates: 3 });
    decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [256, 257, 258, 259].map(template) }]), 0);
    expect(state.stats()).toMatchObject({ templates: 3, templatesEvicted: 1 });
    expect(decodeDatagram(state, EXPORTER, data(256), 0).flows).toEqual([]);
    expect(decodeDatagram(state, EXPORTER, data(259), 0).flows).toHaveLength(1);
  });

  it("evicts the least recently heard exporter domain beyond its cap, with its templates", () => {
    const state = new TemplateState({ maxDomains: 2 });
    for (const domain of [1, 2]) decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [template(256)] }], domain), 0);
    decodeDatagram(state, EXPORTER, message([], 1), 0); // domain 1 heard again: domain 2 is now the oldest
    decodeDatagram(state, "192.0.2.78", message([]), 0);
    expect(state.stats()).toMatchObject({ domains: 2, domainsEvicted: 1, templates: 1 });
    expect(
      decodeDatagram(state, EXPORTER, message([{ kind: "data", template: template(256), records: [[1, 1]] }], 1), 0).flows,
    ).toHaveLength(1);
  });

  it("keeps at most N waiting sets per domain; the oldest dropped is a template miss", () => {
    const state = new TemplateState({ maxPendingSets: 2 });
    const results = [300, 301, 302].map((id) => decodeDatagram(state, EXPORTER, data(id), 0));
    expect(results.map((r) => r.templateMisses)).toEqual([0, 0, 1]);
    expect(state.stats()).toMatchObject({ pendingSets: 2, pendingDropped: 1 });
    const late = decodeDatagram(
      state,
      EXPORTER,
      message([{ kind: "template", templates: [template(300), template(301), template(302)] }]),
      0,
    );
    expect(late.flows).toHaveLength(2);
  });

  it("refuses a set beyond the buffer's byte cap and counts it as a template miss at once", () => {
    const state = new TemplateState({ maxPendingBytes: 8 });
    expect(decodeDatagram(state, EXPORTER, data(300), 0).templateMisses).toBe(0);
    expect(decodeDatagram(state, EXPORTER, data(301), 0).templateMisses).toBe(1);
  });

  it("expires sets that waited too long: counted on the exporter's next datagram, or by a sweep", () => {
    const state = new TemplateState({ pendingMaxAgeMs: 1_000 });
    decodeDatagram(state, EXPORTER, data(300), 10_000);
    expect(decodeDatagram(state, EXPORTER, message([]), 10_500).templateMisses).toBe(0);
    expect(decodeDatagram(state, EXPORTER, message([{ kind: "template", templates: [template(300)] }]), 11_001)).toMatchObject({
      templateMisses: 1,
      flows: [],
    });

    decodeDatagram(state, "192.0.2.99", data(300), 20_000);
    expect(state.sweep(20_500)).toEqual([]);
    expect(state.sweep(21_001)).toEqual([{ protocol: "ipfix", exporter: "192.0.2.99", sourceId: 1, templateMisses: 1 }]);
    expect(state.stats().pendingBytes).toBe(0);
  });
});
