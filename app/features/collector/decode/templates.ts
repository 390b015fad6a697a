/**
 * What NetFlow v9 and IPFIX exporters announce and later datagrams depend on, per template domain
 * (exporter address + v9 source id / IPFIX observation domain): templates and options templates,
 * the samplers' rates from options data, the system init time, and data sets that arrived before
 * their template. Everything is bounded — exporters (or anyone spoofing them) choose how many
 * domains and template ids exist — and what is evicted or expires is counted.
 */
import type { ElementReader } from "./elements";
import type { FlowProtocol } from "./flow-record";

/** IPFIX field length meaning "variable": the record says the length (RFC 7011 §7). */
export const VARIABLE_LENGTH = 65535;

export type TemplateField = { id: number; enterprise: number; length: number };

export type Template = {
  id: number;
  fields: TemplateField[];
  /** Options templates: the leading fields that are scope fields; 0 for data templates. */
  scopeCount: number;
  options: boolean;
  /** The shortest record: fixed lengths plus one length byte per variable-length field. */
  minRecordLength: number;
  /**
   * Per field, resolved once when the template is learnt rather than for every record: the element
   * reader (null: skipped by its length) and whether it fills the reverse direction (RFC 5103).
   */
  readers: (ElementReader | null)[];
  reverse: boolean[];
  /** Fields of a data template without a reader: each record of it skips this many (counted as unknown-element). */
  unknownCount: number;
  /** Those fields' elements, "id" or "enterprise/id", distinct. */
  unknownIds: string[];
};

/** A data set kept until its template arrives, with the header facts its records are timed by. */
export type PendingSet = { templateId: number; body: Uint8Array; exportTimeMs: number; uptimeMs: number | null; receivedAtMs: number };

export type TemplateLimits = {
  /** Exporter × source id pairs kept; the least recently heard is evicted. */
  maxDomains: number;
  /** Templates kept over all domains; the oldest announced is evicted. */
  maxTemplates: number;
  /** Fields of those templates together (a template may declare thousands). */
  maxTemplateFields: number;
  /** Data sets waiting for a template, per domain and in bytes over all domains. */
  maxPendingSets: number;
  maxPendingBytes: number;
  /** How long a data set waits for its template before it counts as a template miss. */
  pendingMaxAgeMs: number;
  maxSamplers: number;
};

export const DEFAULT_TEMPLATE_LIMITS: TemplateLimits = {
  maxDomains: 4096,
  maxTemplates: 16_384,
  maxTemplateFields: 262_144,
  maxPendingSets: 32,
  maxPendingBytes: 4 * 1024 * 1024,
  pendingMaxAgeMs: 60_000,
  maxSamplers: 256,
};

/** Options data that named a rate without a sampler id (e.g. SAMPLING_INTERVAL scoped to the system). */
export const DEFAULT_SAMPLER = -1;

export class TemplateDomain {
  readonly templates = new Map<number, Template>();
  /** Sampler id → rate, from options data. */
  readonly samplers = new Map<number, number>();
  systemInitMs: number | null = null;
  pending: PendingSet[] = [];

  constructor(
    readonly key: string,
    readonly protocol: FlowProtocol,
    readonly exporter: string,
    readonly sourceId: number,
  ) {}

  /** The rate of the sampler a record names, else of the domain's only sampler, else null. */
  samplingRate(samplerId: number | null): number | null {
    if (samplerId !== null) {
      const rate = this.samplers.get(samplerId);
      if (rate !== undefined) return rate;
    }
    if (this.samplers.size === 1) return this.samplers.values().next().value ?? null;
    return null;
  }
}

export type TemplateCounters = {
  domainsEvicted: number;
  templatesEvicted: number;
  /** Data sets dropped from the buffer: full, too old, or their domain evicted. */
  pendingDropped: number;
};

export class TemplateState {
  readonly limits: TemplateLimits;
  readonly counters: TemplateCounters = { domainsEvicted: 0, templatesEvicted: 0, pendingDropped: 0 };
  private readonly domains = new Map<string, TemplateDomain>();
  /** Every template of every domain, oldest announcement first. */
  private readonly templateAges = new Map<string, { domain: TemplateDomain; id: number }>();
  private templateFields = 0;
  private pendingBytes = 0;

  constructor(limits: Partial<TemplateLimits> = {}) {
    this.limits = { ...DEFAULT_TEMPLATE_LIMITS, ...limits };
  }

  /** The domain of a datagram, created on first use; using it makes it the most recently heard. */
  domain(protocol: FlowProtocol, exporter: string, sourceId: number): TemplateDomain {
    const key = `${protocol}|${exporter}|${sourceId}`;
    let domain = this.domains.get(key);
    if (domain) {
      this.domains.delete(key);
    } else {
      domain = new TemplateDomain(key, protocol, exporter, sourceId);
    }
    this.domains.set(key, domain);
    while (this.domains.size > this.limits.maxDomains) {
      const oldest = this.domains.values().next().value as TemplateDomain;
      this.dropDomain(oldest);
      this.counters.domainsEvicted++;
    }
    return domain;
  }

  /** A new template, or a refresh: the same id replaces what was there. */
  setTemplate(domain: TemplateDomain, template: Template): void {
    this.withdrawTemplate(domain, template.id);
    domain.templates.set(template.id, template);
    this.templateAges.set(`${domain.key}#${template.id}`, { domain, id: template.id });
    this.templateFields += template.fields.length;
    while (this.templateAges.size > this.limits.maxTemplates || this.templateFields > this.limits.maxTemplateFields) {
      const oldest = this.templateAges.values().next().value as { domain: TemplateDomain; id: number };
      this.withdrawTemplate(oldest.domain, oldest.id);
      this.counters.templatesEvicted++;
    }
  }

  withdrawTemplate(domain: TemplateDomain, id: number): void {
    const template = domain.templates.get(id);
    if (!template) return;
    domain.templates.delete(id);
    this.templateAges.delete(`${domain.key}#${id}`);
    this.templateFields -= template.fields.length;
  }

  /** IPFIX all-withdrawal: every data template (set id 2) or every options template (set id 3) of the domain. */
  withdrawAll(domain: TemplateDomain, options: boolean): void {
    for (const template of [...domain.templates.values()]) {
      if (template.options === options) this.withdrawTemplate(domain, template.id);
    }
  }

  setSampler(domain: TemplateDomain, samplerId: number, rate: number): void {
    domain.samplers.delete(samplerId);
    domain.samplers.set(samplerId, rate);
    if (domain.samplers.size > this.limits.maxSamplers) domain.samplers.delete(domain.samplers.keys().next().value as number);
  }

  /**
   * Keeps a data set for its template. Returns how many sets were lost doing so (template misses):
   * the domain's oldest when its buffer is full, or this one when the bytes cap leaves no room.
   */
  buffer(domain: TemplateDomain, set: PendingSet): number {
    const size = set.body.length;
    let lost = 0;
    while (domain.pending.length >= this.limits.maxPendingSets) {
      this.removePending(domain, 0);
      lost++;
    }
    if (this.pendingBytes + size > this.limits.maxPendingBytes) {
      lost++;
    } else {
      // The caller's buffer is reused for the next datagram: keep a copy.
      domain.pending.push({ ...set, body: set.body.slice() });
      this.pendingBytes += size;
    }
    this.counters.pendingDropped += lost;
    return lost;
  }

  /** The buffered sets a template just made readable, removed from the buffer. */
  takePending(domain: TemplateDomain, templateId: number): PendingSet[] {
    const taken: PendingSet[] = [];
    for (let i = domain.pending.length - 1; i >= 0; i--) {
      if (domain.pending[i].templateId === templateId) {
        taken.unshift(domain.pending[i]);
        this.removePending(domain, i);
      }
    }
    return taken;
  }

  /** Drops the domain's sets older than the limit; returns how many (template misses). */
  expire(domain: TemplateDomain, nowMs: number): number {
    let expired = 0;
    while (domain.pending.length > 0 && nowMs - domain.pending[0].receivedAtMs > this.limits.pendingMaxAgeMs) {
      this.removePending(domain, 0);
      expired++;
    }
    this.counters.pendingDropped += expired;
    return expired;
  }

  /** For a periodic timer: expires the sets of every domain, including exporters gone silent. */
  sweep(nowMs: number): Array<{ protocol: FlowProtocol; exporter: string; sourceId: number; templateMisses: number }> {
    const misses = [];
    for (const domain of this.domains.values()) {
      const templateMisses = this.expire(domain, nowMs);
      if (templateMisses > 0)
        misses.push({ protocol: domain.protocol, exporter: domain.exporter, sourceId: domain.sourceId, templateMisses });
    }
    return misses;
  }

  stats(): { domains: number; templates: number; templateFields: number; pendingSets: number; pendingBytes: number } & TemplateCounters {
    let pendingSets = 0;
    for (const domain of this.domains.values()) pendingSets += domain.pending.length;
    return {
      domains: this.domains.size,
      templates: this.templateAges.size,
      templateFields: this.templateFields,
      pendingSets,
      pendingBytes: this.pendingBytes,
      ...this.counters,
    };
  }

  private removePending(domain: TemplateDomain, index: number): void {
    this.pendingBytes -= domain.pending[index].body.length;
    domain.pending.splice(index, 1);
  }

  private dropDomain(domain: TemplateDomain): void {
    for (const id of [...domain.templates.keys()]) this.withdrawTemplate(domain, id);
    this.counters.pendingDropped += domain.pending.length;
    while (domain.pending.length > 0) this.removePending(domain, 0);
    this.domains.delete(domain.key);
  }
}
