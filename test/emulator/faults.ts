/** Fault injection: per-route overrides applied before authentication. */
import type { FaultController, FaultSpec } from './types';

interface ActiveFault {
  spec: FaultSpec;
  remaining: number;
}

export class Faults implements FaultController {
  private readonly active: ActiveFault[] = [];
  private readonly held: (() => void)[] = [];

  add(f: FaultSpec): void {
    if (typeof f.path !== 'string' && !(f.path instanceof RegExp)) {
      throw new TypeError('fault path must be a string or a RegExp');
    }
    if (f.times !== undefined && (!Number.isInteger(f.times) || f.times < 1)) {
      throw new TypeError('fault times must be a positive integer');
    }
    if (f.status !== undefined && (!Number.isInteger(f.status) || f.status < 100 || f.status > 599)) {
      throw new TypeError('fault status must be an HTTP status code');
    }
    this.active.push({ spec: { ...f }, remaining: f.times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.active.length = 0;
    this.release();
  }

  /** Waits until the requests held by `hold` faults are released. */
  waitForRelease(): Promise<void> {
    return new Promise((resolve) => this.held.push(resolve));
  }

  /** Lets every held request go on (faults that hold stay: later requests are held again). */
  release(): void {
    for (const go of this.held.splice(0)) go();
  }

  /** How many requests are held now. */
  get holding(): number {
    return this.held.length;
  }

  list(): FaultSpec[] {
    return this.active.map((a) => ({ ...a.spec, ...(Number.isFinite(a.remaining) ? { times: a.remaining } : {}) }));
  }

  /** Returns the first fault matching the request and consumes one of its uses. */
  take(method: string, path: string): FaultSpec | undefined {
    const index = this.active.findIndex((a) => matches(a.spec, method, path));
    if (index < 0) return undefined;
    const hit = this.active[index] as ActiveFault;
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.active.splice(index, 1);
    return hit.spec;
  }
}

function matches(f: FaultSpec, method: string, path: string): boolean {
  if (f.method && f.method.toUpperCase() !== method.toUpperCase()) return false;
  if (f.path instanceof RegExp) {
    f.path.lastIndex = 0;
    return f.path.test(path);
  }
  if (f.path.endsWith('*')) return path.startsWith(f.path.slice(0, -1));
  return path === f.path;
}

/** Parses the JSON form used by `POST /__emulator/faults` (path as a string or `{"regex": "...", "flags": "i"}`). */
export function faultFromJson(value: unknown): FaultSpec {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('fault must be a JSON object');
  }
  const o = value as Record<string, unknown>;
  let path: string | RegExp;
  if (typeof o.path === 'string') path = o.path;
  else if (typeof o.path === 'object' && o.path !== null && typeof (o.path as { regex?: unknown }).regex === 'string') {
    const p = o.path as { regex: string; flags?: unknown };
    path = new RegExp(p.regex, typeof p.flags === 'string' ? p.flags : '');
  } else throw new TypeError('fault path must be a string or {"regex": "..."}');
  const spec: FaultSpec = { path };
  if (typeof o.method === 'string') spec.method = o.method;
  if (typeof o.times === 'number') spec.times = o.times;
  if (typeof o.status === 'number') spec.status = o.status;
  if (typeof o.body === 'string' || (typeof o.body === 'object' && o.body !== null)) {
    spec.body = o.body as string | object;
  }
  if (typeof o.headers === 'object' && o.headers !== null) {
    spec.headers = Object.fromEntries(
      Object.entries(o.headers as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    );
  }
  if (typeof o.delayMs === 'number') spec.delayMs = o.delayMs;
  if (o.hold === true) spec.hold = true;
  if (o.reset === 'before-headers' || o.reset === 'mid-body') spec.reset = o.reset;
  else if (o.reset !== undefined) throw new TypeError('fault reset must be "before-headers" or "mid-body"');
  if (typeof o.malformedJson === 'boolean') spec.malformedJson = o.malformedJson;
  if (typeof o.dripMs === 'number') spec.dripMs = o.dripMs;
  return spec;
}

export function faultToJson(f: FaultSpec): Record<string, unknown> {
  return { ...f, path: f.path instanceof RegExp ? { regex: f.path.source, flags: f.path.flags } : f.path };
}
