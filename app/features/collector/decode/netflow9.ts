/** NetFlow v9 (RFC 3954): a 20-byte header, then template (0), options template (1) and data (≥ 256) flowsets. */
import { viewOf } from "./bytes";
import { emptyResult, type DecodeResult } from "./flow-record";
import { FIRST_DATA_SET_ID, decodeDataSet, learnTemplate, makeTemplate, splitSets, type MessageContext } from "./flowsets";
import type { TemplateField, TemplateState } from "./templates";

const HEADER_LENGTH = 20;
const TEMPLATE_SET = 0;
const OPTIONS_TEMPLATE_SET = 1;

export function decodeNetflow9(state: TemplateState, exporter: string, payload: Uint8Array, receivedAtMs: number): DecodeResult {
  const result = emptyResult("netflow9");
  if (payload.length < HEADER_LENGTH) {
    result.problems.push({ reason: "truncated", detail: `NetFlow v9 header needs ${HEADER_LENGTH} bytes, got ${payload.length}` });
    return result;
  }
  const view = viewOf(payload);
  // v9 has no message length: the datagram's end is the message's, and every flowset must end within it.
  const sets = splitSets(view, HEADER_LENGTH, payload.length);
  if (!Array.isArray(sets)) {
    result.problems.push(sets);
    return result;
  }
  const domain = state.domain("netflow9", exporter, view.getUint32(16));
  const message: MessageContext = {
    state,
    domain,
    protocol: "netflow9",
    uptimeMs: view.getUint32(4),
    exportTimeMs: view.getUint32(8) * 1000,
    receivedAtMs,
    result,
  };
  result.templateMisses += state.expire(domain, receivedAtMs);
  for (const { setId, bodyStart: start, bodyEnd: end } of sets) {
    if (setId === TEMPLATE_SET) readTemplates(message, view, start, end);
    else if (setId === OPTIONS_TEMPLATE_SET) readOptionsTemplates(message, view, start, end);
    else if (setId >= FIRST_DATA_SET_ID) decodeDataSet(message, setId, view, start, end);
    else result.problems.push({ reason: "bad-set", detail: `NetFlow v9 flowset id ${setId} is reserved` });
  }
  return result;
}

function readFields(view: DataView, at: number, count: number): TemplateField[] {
  const fields: TemplateField[] = [];
  for (let i = 0; i < count; i++) fields.push({ id: view.getUint16(at + i * 4), enterprise: 0, length: view.getUint16(at + i * 4 + 2) });
  return fields;
}

function readTemplates(message: MessageContext, view: DataView, start: number, end: number): void {
  let at = start;
  // Fewer than 4 bytes left is the flowset's padding.
  while (end - at >= 4) {
    const id = view.getUint16(at);
    const count = view.getUint16(at + 2);
    at += 4;
    if (at + count * 4 > end) {
      message.result.problems.push({ reason: "bad-template", detail: `template ${id} declares ${count} fields beyond its flowset` });
      return;
    }
    const fields = readFields(view, at, count);
    at += count * 4;
    register(message, id, fields, 0, false);
  }
}

function readOptionsTemplates(message: MessageContext, view: DataView, start: number, end: number): void {
  let at = start;
  while (end - at >= 6) {
    const id = view.getUint16(at);
    const scopeLength = view.getUint16(at + 2);
    const optionLength = view.getUint16(at + 4);
    at += 6;
    if (id === 0 && scopeLength === 0 && optionLength === 0) return; // padding
    if (scopeLength % 4 !== 0 || optionLength % 4 !== 0 || at + scopeLength + optionLength > end) {
      message.result.problems.push({
        reason: "bad-template",
        detail: `options template ${id} has scope/option lengths ${scopeLength}/${optionLength}`,
      });
      return;
    }
    const scopeCount = scopeLength / 4;
    const fields = readFields(view, at, scopeCount + optionLength / 4);
    at += scopeLength + optionLength;
    register(message, id, fields, scopeCount, true);
  }
}

function register(message: MessageContext, id: number, fields: TemplateField[], scopeCount: number, options: boolean): void {
  if (id < FIRST_DATA_SET_ID) {
    message.result.problems.push({ reason: "bad-template", detail: `template id ${id} is below ${FIRST_DATA_SET_ID}` });
    return;
  }
  const template = makeTemplate(id, fields, scopeCount, options);
  if (typeof template === "string") message.result.problems.push({ reason: "bad-template", detail: template });
  else learnTemplate(message, template);
}
