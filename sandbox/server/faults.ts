/**
 * Fault injection for resilience tests: random faults by rate, plus a queue of deterministic next-N faults.
 * All off by default.
 */

export interface FaultSettings {
  /** Added delay before every /v1 response, in ms. */
  latencyMs: number;
  /** Share of requests answered 500 internal_error. */
  errorRate: number;
  /** Share of requests answered 429 rate_limited (Retry-After: 1). */
  rateLimitBurstRate: number;
  /** Share of requests whose socket is destroyed without a response. */
  dropRate: number;
  /** Share of requests answered 200 with a truncated, invalid JSON body. */
  malformedRate: number;
}

export type FaultKind = '500' | '429' | 'drop' | 'malformed' | 'latency' | 'hang';
export const FAULT_KINDS: readonly FaultKind[] = ['500', '429', 'drop', 'malformed', 'latency', 'hang'];

export interface QueuedFault {
  kind: FaultKind;
  /** How many of the next requests get it (default 1). */
  count?: number;
  /** Delay for `latency` (default 1000). */
  ms?: number;
}

/** What to do with one request. */
export interface FaultDecision {
  delayMs: number;
  /** `hang`: the request is read and never answered (the socket stays open until the client gives up). */
  action: 'none' | '500' | '429' | 'drop' | 'malformed' | 'hang';
}

export const DEFAULT_FAULTS: Readonly<FaultSettings> = Object.freeze({
  latencyMs: 0,
  errorRate: 0,
  rateLimitBurstRate: 0,
  dropRate: 0,
  malformedRate: 0,
});

export class FaultController {
  private current: FaultSettings;
  private queue: { kind: FaultKind; remaining: number; ms: number }[] = [];

  constructor(
    initial: Partial<FaultSettings> = {},
    private readonly random: () => number = Math.random,
  ) {
    this.current = { ...DEFAULT_FAULTS };
    this.set(initial);
  }

  get settings(): Readonly<FaultSettings> {
    return { ...this.current };
  }

  get pending(): readonly { kind: FaultKind; remaining: number; ms: number }[] {
    return this.queue.map((q) => ({ ...q }));
  }

  set(partial: Partial<FaultSettings>): void {
    const next = { ...this.current };
    for (const [name, value] of Object.entries(partial) as [keyof FaultSettings, unknown][]) {
      if (!(name in DEFAULT_FAULTS)) throw new Error(`unknown fault setting "${name}"`);
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        throw new Error(`fault setting "${name}" must be a non-negative number`);
      }
      if (name !== 'latencyMs' && value > 1) throw new Error(`fault setting "${name}" is a rate between 0 and 1`);
      next[name] = value;
    }
    this.current = next;
  }

  reset(): void {
    this.current = { ...DEFAULT_FAULTS };
    this.queue = [];
  }

  enqueue(fault: QueuedFault): void {
    if (!FAULT_KINDS.includes(fault.kind)) throw new Error(`unknown fault kind "${String(fault.kind)}"`);
    const count = fault.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new Error('fault count must be a positive integer');
    const ms = fault.ms ?? 1000;
    if (!Number.isFinite(ms) || ms < 0) throw new Error('fault ms must be a non-negative number');
    this.queue.push({ kind: fault.kind, remaining: count, ms });
  }

  /** Decides the fault of the next request, consuming queued faults first. */
  next(): FaultDecision {
    let delayMs = this.current.latencyMs;
    let action: FaultDecision['action'] = 'none';
    // One queued latency and one queued failure may combine on the same request.
    for (const want of ['latency', 'other'] as const) {
      const idx = this.queue.findIndex((q) => (want === 'latency') === (q.kind === 'latency'));
      if (idx < 0) continue;
      const q = this.queue[idx]!;
      if (q.kind === 'latency') delayMs += q.ms;
      else action = q.kind;
      q.remaining -= 1;
      if (q.remaining <= 0) this.queue.splice(idx, 1);
    }
    if (action === 'none') {
      const s = this.current;
      if (s.dropRate > 0 && this.random() < s.dropRate) action = 'drop';
      else if (s.errorRate > 0 && this.random() < s.errorRate) action = '500';
      else if (s.rateLimitBurstRate > 0 && this.random() < s.rateLimitBurstRate) action = '429';
      else if (s.malformedRate > 0 && this.random() < s.malformedRate) action = 'malformed';
    }
    return { delayMs, action };
  }
}

const SPEC_NAMES: Record<string, keyof FaultSettings> = {
  latency: 'latencyMs',
  latency_ms: 'latencyMs',
  error_rate: 'errorRate',
  drop_rate: 'dropRate',
  malformed_rate: 'malformedRate',
  rate_limit_rate: 'rateLimitBurstRate',
};

/** Parses `latency=200,error_rate=0.05,drop_rate=0.01,malformed_rate=0.01,rate_limit_rate=0.02`. */
export function parseFaultSpec(spec: string): Partial<FaultSettings> {
  const out: Partial<FaultSettings> = {};
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    const field = SPEC_NAMES[name];
    if (!field) throw new Error(`unknown fault "${name}" (expected ${Object.keys(SPEC_NAMES).join(', ')})`);
    const text = eq < 0 ? '' : part.slice(eq + 1).trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value) || value < 0) throw new Error(`"${name}" needs a non-negative number`);
    if (field !== 'latencyMs' && value > 1) throw new Error(`"${name}" is a rate between 0 and 1`);
    out[field] = value;
  }
  return out;
}

const BODY_NAMES: Record<string, keyof FaultSettings> = {
  ...SPEC_NAMES,
  latencyMs: 'latencyMs',
  errorRate: 'errorRate',
  dropRate: 'dropRate',
  malformedRate: 'malformedRate',
  rateLimitBurstRate: 'rateLimitBurstRate',
  rate_limit_burst_rate: 'rateLimitBurstRate',
};

/**
 * Applies a `POST /__sandbox/faults` body: settings by camelCase or snake_case name, optional
 * `reset: true` first, and optional `enqueue` (one fault or a list).
 */
export function applyFaultBody(faults: FaultController, body: unknown): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('body must be a JSON object');
  const record = body as Record<string, unknown>;
  const partial: Partial<FaultSettings> = {};
  const queued: QueuedFault[] = [];
  for (const [name, value] of Object.entries(record)) {
    if (name === 'reset' || name === 'enqueue') continue;
    const field = BODY_NAMES[name];
    if (!field) throw new Error(`unknown fault setting "${name}"`);
    if (typeof value !== 'number') throw new Error(`"${name}" must be a number`);
    partial[field] = value;
  }
  if (record.enqueue !== undefined) {
    const list = Array.isArray(record.enqueue) ? record.enqueue : [record.enqueue];
    for (const item of list) {
      if (item === null || typeof item !== 'object') throw new Error('"enqueue" entries must be objects');
      queued.push(item as QueuedFault);
    }
  }
  // Validate everything before changing anything.
  const probe = new FaultController();
  probe.set(partial);
  for (const q of queued) probe.enqueue(q);
  if (record.reset === true) faults.reset();
  faults.set(partial);
  for (const q of queued) faults.enqueue(q);
}
