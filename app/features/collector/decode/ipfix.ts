/**
 * IPFIX (RFC 7011): a 16-byte message header, then template (2), options template (3) and data
 * (≥ 256) sets; enterprise-specific elements, variable-length fields, template withdrawal.
 */
import { viewOf } from "./bytes";
import { emptyResult, type DecodeResult } from "./flow-record";
import { FIRST_DATA_SET_ID, decodeDataSet, learnTemplate, makeTemplate, splitSets, type MessageContext } from "./flowsets";
import type { TemplateField, TemplateState } from "./templates";

const HEADER_LENGTH = 16;
const TEMPLATE_SET = 2;
const OPTIONS_TEMPLATE_SET = 3;
const ENTERPRISE_BIT = 0x8000;

export function decodeIpfix(state: TemplateState, exporter: string, payload: Uint8Array, receivedAtMs: number): DecodeResult {
  const result = emptyResult("ipfix");
  if (payload.length < HEADER_LENGTH) {
    result.problems.push({ reason: "truncated", detail: `IPFIX header needs ${HEADER_LENGTH} bytes, got ${payload.length}` });
    return result;
  }
  const view = viewOf(payload);
  const length = view.getUint16(2);
  if (length < HEADER_LENGTH) {
    result.problems.push({ reason: "bad-header", detail: `IPFIX message length ${length} is shorter than its header` });
    return result;
  }
  if (length > payload.length) {
    result.problems.push({ reason: "truncated", detail: `IPFIX message length ${length}, datagram ${payload.length} bytes` });
    return result;
  }
  const sets = splitSets(view, HEADER_LENGTH, length);
  if (!Array.isArray(sets)) {
    result.problems.push(sets);
    return result;
  }
  const domain = state.domain("ipfix", exporter, view.getUint32(12));
  const message: MessageContext = {
    state,
    domain,
    protocol: "ipfix",
    uptimeMs: null,
    exportTimeMs: view.getUint32(4) * 1000,
    receivedAtMs,
    result,
  };
  result.templateMisses += state.expire(domain, receivedAtMs);
  for (const { setId, bodyStart: start, bodyEnd: end } of sets) {
    if (setId === TEMPLATE_SET || setId === OPTIONS_TEMPLATE_SET) readTemplates(message, view, start, end, setId === OPTIONS_TEMPLATE_SET);
    else if (setId >= FIRST_DATA_SET_ID) decodeDataSet(message, setId, view, start, end);
    else result.problems.push({ reason: "bad-set", detail: `IPFIX set id ${setId} is reserved` });
  }
  return result;
}

function readTemplates(message: MessageContext, view: DataView, start: number, end: number, options: boolean): void {
  const { state, domain } = message;
  let at = start;
  // Fewer than 4 bytes left, or a zero template id, is the set's padding.
  while (end - at >= 4) {
    const id = view.getUint16(at);
    const count = view.getUint16(at + 2);
    if (id === 0) return;
    at += 4;
    if (count === 0) {
      // Withdrawal (RFC 7011 §8.1): the set's own id withdraws every template of its kind.
      if (id === (options ? OPTIONS_TEMPLATE_SET : TEMPLATE_SET)) state.withdrawAll(domain, options);
      else state.withdrawTemplate(domain, id);
      continue;
    }
    let scopeCount = 0;
    if (options) {
      if (end - at < 2) return problem(message, `options template ${id} is cut before its scope field count`);
      scopeCount = view.getUint16(at);
      at += 2;
      if (scopeCount === 0 || scopeCount > count)
        return problem(message, `options template ${id} has ${scopeCount} scope fields of ${count}`);
    }
    const fields: TemplateField[] = [];
    for (let i = 0; i < count; i++) {
      if (end - at < 4) return problem(message, `template ${id} declares ${count} fields beyond its set`);
      const rawId = view.getUint16(at);
      const length = view.getUint16(at + 2);
      at += 4;
      let enterprise = 0;
      if (rawId & ENTERPRISE_BIT) {
        if (end - at < 4) return problem(message, `template ${id} is cut inside an enterprise number`);
        enterprise = view.getUint32(at);
        at += 4;
      }
      fields.push({ id: rawId & ~ENTERPRISE_BIT, enterprise, length });
    }
    if (id < FIRST_DATA_SET_ID) {
      problem(message, `template id ${id} is below ${FIRST_DATA_SET_ID}`);
      continue;
    }
    const template = makeTemplate(id, fields, scopeCount, options);
    if (typeof template === "string") problem(message, template);
    else learnTemplate(message, template);
  }
}

function problem(message: MessageContext, detail: string): void {
  message.result.problems.push({ reason: "bad-template", detail });
}
