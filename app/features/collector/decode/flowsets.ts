/**
 * What NetFlow v9 (RFC 3954) and IPFIX (RFC 7011) share once their headers are read: walking the
 * sets of a message, reading data records through their template (buffering sets whose template
 * has not arrived), turning options data into sampler rates, and sampling precedence.
 */
import { viewOf } from "./bytes";
import { ELEMENT_READERS, REVERSE_PEN, emptyValues, samplingRateOf, type ElementReader, type ElementValues } from "./elements";
import { MAX_UNKNOWN_ELEMENT_IDS, type DecodeProblem, type DecodeResult } from "./flow-record";
import { flowFromValues, reverseFlow, type RecordContext } from "./record-flows";
import { DEFAULT_SAMPLER, VARIABLE_LENGTH, type Template, type TemplateDomain, type TemplateField, type TemplateState } from "./templates";

/** One message being decoded: where its flows and problems go, and the header facts records are timed by. */
export type MessageContext = {
  state: TemplateState;
  domain: TemplateDomain;
  protocol: "netflow9" | "ipfix";
  exportTimeMs: number;
  uptimeMs: number | null;
  receivedAtMs: number;
  result: DecodeResult;
};

export const SET_HEADER_LENGTH = 4;
/** Data sets use template ids from 256 up (both protocols); lower ids name template and options sets. */
export const FIRST_DATA_SET_ID = 256;

/** A set of a message: its id and where its body lies in the datagram. */
export type SetSpan = { setId: number; bodyStart: number; bodyEnd: number };

/**
 * The sets between `start` and `end`, or the problem of the first that does not fit. Checked before
 * any set is read: UDP delivers whole datagrams, so a set that runs past the end, or bytes too few
 * for a set header, make the whole datagram corrupt (a cut copy, or noise after a valid header),
 * and none of its records, templates or options may be used.
 */
export function splitSets(view: DataView, start: number, end: number): SetSpan[] | DecodeProblem {
  const sets: SetSpan[] = [];
  let at = start;
  while (at < end) {
    if (end - at < SET_HEADER_LENGTH)
      return { reason: "truncated", detail: `${end - at} bytes after the last set, too few for a set header` };
    const setId = view.getUint16(at);
    const length = view.getUint16(at + 2);
    if (length < SET_HEADER_LENGTH) return { reason: "bad-set", detail: `set ${setId} has length ${length}, shorter than its header` };
    if (at + length > end)
      return { reason: "truncated", detail: `set ${setId} of length ${length} runs ${at + length - end} bytes beyond the datagram` };
    sets.push({ setId, bodyStart: at + SET_HEADER_LENGTH, bodyEnd: at + length });
    at += length;
  }
  return sets;
}

/** A template from its fields, or a problem text when no record could ever be read through it. */
export function makeTemplate(id: number, fields: TemplateField[], scopeCount: number, options: boolean): Template | string {
  if (fields.length === 0) return `template ${id} has no fields`;
  let minRecordLength = 0;
  for (const field of fields) {
    if (field.length === 0) return `template ${id} has a zero-length field (element ${field.id})`;
    minRecordLength += field.length === VARIABLE_LENGTH ? 1 : field.length;
  }
  const readers: (ElementReader | null)[] = [];
  const reverse: boolean[] = [];
  const unknownIds = new Set<string>();
  let unknownCount = 0;
  for (const field of fields) {
    const known = field.enterprise === 0 || field.enterprise === REVERSE_PEN;
    const reader = known ? (ELEMENT_READERS.get(field.id) ?? null) : null;
    readers.push(reader);
    reverse.push(field.enterprise === REVERSE_PEN);
    // Options records describe the exporter (names, rates, counters), not flows: only the sampling
    // and clock elements are read from them, and the rest is no loss worth counting.
    if (reader === null && !options) {
      unknownCount++;
      unknownIds.add(field.enterprise === 0 ? String(field.id) : `${field.enterprise}/${field.id}`);
    }
  }
  return { id, fields, scopeCount, options, minRecordLength, readers, reverse, unknownCount, unknownIds: [...unknownIds] };
}

/** Registers a template and decodes the sets that were waiting for it. */
export function learnTemplate(message: MessageContext, template: Template): void {
  message.state.setTemplate(message.domain, template);
  const listed = message.result.unknownElements;
  for (const element of template.unknownIds) if (listed.length < MAX_UNKNOWN_ELEMENT_IDS && !listed.includes(element)) listed.push(element);
  for (const pending of message.state.takePending(message.domain, template.id)) {
    const timed = { ...message, exportTimeMs: pending.exportTimeMs, uptimeMs: pending.uptimeMs };
    readRecords(timed, template, viewOf(pending.body), 0, pending.body.length);
  }
}

/** A data set: read now, or kept until its template arrives (what the full buffer loses counts as misses). */
export function decodeDataSet(message: MessageContext, templateId: number, view: DataView, start: number, end: number): void {
  const template = message.domain.templates.get(templateId);
  if (template) {
    readRecords(message, template, view, start, end);
    return;
  }
  const body = new Uint8Array(view.buffer, view.byteOffset + start, end - start);
  message.result.templateMisses += message.state.buffer(message.domain, {
    templateId,
    body,
    exportTimeMs: message.exportTimeMs,
    uptimeMs: message.uptimeMs,
    receivedAtMs: message.receivedAtMs,
  });
}

function readRecords(message: MessageContext, template: Template, view: DataView, start: number, end: number): void {
  // v9 options scope fields use their own type space (1 System, 2 Interface …), not element ids.
  const skipScope = message.protocol === "netflow9" ? template.scopeCount : 0;
  const { fields, readers, reverse: reverseOf } = template;
  const skipped = message.result.skipped;
  let at = start;
  while (end - at >= template.minRecordLength) {
    if (isPadding(view, at, end)) return;
    skipped["unknown-element"] += template.unknownCount;
    const forward = emptyValues();
    let reverse: ElementValues | null = null;
    for (let i = 0; i < fields.length; i++) {
      let length = fields[i].length;
      if (length === VARIABLE_LENGTH) {
        if (at + 1 > end) return recordTooShort(message, template);
        length = view.getUint8(at++);
        if (length === 255) {
          if (at + 2 > end) return recordTooShort(message, template);
          length = view.getUint16(at);
          at += 2;
        }
      }
      if (at + length > end) return recordTooShort(message, template);
      const reader = readers[i];
      if (reader !== null && i >= skipScope) {
        const read = !reverseOf[i] ? reader(forward, view, at, length) : reader((reverse ??= emptyValues()), view, at, length);
        if (!read) skipped["bad-element"]++;
      }
      at += length;
    }
    if (template.options) applyOptions(message, forward);
    else emitFlows(message, forward, reverse);
  }
  if (at < end && !isPadding(view, at, end)) recordTooShort(message, template);
}

/** Both protocols pad sets to 4 bytes with zeros; more, or non-zero bytes, is a cut record. */
function isPadding(view: DataView, start: number, end: number): boolean {
  if (end - start >= 4) return false;
  for (let at = start; at < end; at++) if (view.getUint8(at) !== 0) return false;
  return true;
}

function recordTooShort(message: MessageContext, template: Template): void {
  message.result.problems.push({ reason: "bad-record", detail: `a record ends before the fields of template ${template.id}` });
}

/** Options data: a sampler's rate (by its id, or the exporter's one rate) and the system init time. */
function applyOptions(message: MessageContext, values: ElementValues): void {
  const rate = samplingRateOf(values);
  if (rate !== null) message.state.setSampler(message.domain, values.samplerId ?? DEFAULT_SAMPLER, rate);
  if (values.systemInitMs !== null) message.domain.systemInitMs = values.systemInitMs;
}

/** Sampling precedence: the record's own sampling elements, its sampler's rate, the exporter's only sampler, 1. */
function emitFlows(message: MessageContext, forward: ElementValues, reverse: ElementValues | null): void {
  const rate = samplingRateOf(forward) ?? message.domain.samplingRate(forward.samplerId) ?? 1;
  const context: RecordContext = {
    protocol: message.protocol,
    exporter: message.domain.exporter,
    sourceId: message.domain.sourceId,
    exportTimeMs: message.exportTimeMs,
    uptimeMs: message.uptimeMs,
    systemInitMs: forward.systemInitMs ?? message.domain.systemInitMs,
    samplingRate: Math.max(1, Math.round(rate)),
  };
  const flow = flowFromValues(forward, context);
  message.result.flows.push(flow);
  // The flow is kept with what its sampled header gave; where the header stopped is counted beside it.
  if (flow.header?.stop) message.result.problems.push({ reason: flow.header.stop, detail: `sampled header: ${flow.header.stopDetail}` });
  if (reverse) {
    const back = reverseFlow(flow, reverse, context);
    if (back) message.result.flows.push(back);
  }
}
