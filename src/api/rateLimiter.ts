/**
 * Client-side rate limiting. The Cloud API allows 10 requests per 10 seconds
 * per API key; a sliding-window limiter shared by every client of one key keeps
 * normal use below that, and a 429 penalizes the shared limiter so all of them
 * wait for the server's reset.
 *
 * Time is monotonic (`performance.now()`): setting the wall clock back or forward changes nothing. A grant taken
 * with `acquireSlot` counts against the window from when the server can have seen the request — until the attempt
 * settles it counts as "now", and then at the moment it settled — so slow connection setup (a proxy, TLS) cannot
 * bunch two windows' worth of requests into one window at the server.
 */

export interface RateLimiterOptions {
  /** Requests allowed per window (default 10). */
  requests?: number;
  /** Window length in milliseconds (default 10 000). */
  windowMs?: number;
  /**
   * Extra spacing added to the window so requests granted exactly one window apart
   * are not counted together by the server when network delays differ
   * (default 10 % of the window, at most 250 ms).
   */
  marginMs?: number;
  /** Monotonic clock in ms, for tests (default `performance.now()`). */
  now?: () => number;
}

export const DEFAULT_RATE_LIMIT = { requests: 10, windowMs: 10_000 } as const;

/** A granted slot. Call `done()` once the request has settled (answered, failed or cancelled). */
export interface Grant {
  readonly waitedMs: number;
  done(): void;
}

interface GrantRecord {
  /** When the server can last have seen the request; undefined while it is in flight. */
  at: number | undefined;
}

interface Waiter {
  resolve: (grant: Grant) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  queuedAt: number;
}

/** Grants kept before the first full sweep of expired ones (see `prune`). */
const FULL_SWEEP_MIN = 256;

export class RateLimiter {
  private requests: number;
  private windowMs: number;
  private marginMs: number | undefined;
  private readonly now: () => number;
  /** The grants that still count against the window. */
  private grants: GrantRecord[] = [];
  private fullSweepAt = FULL_SWEEP_MIN;
  private blockedUntil = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(options: RateLimiterOptions = {}) {
    this.requests = DEFAULT_RATE_LIMIT.requests;
    this.windowMs = DEFAULT_RATE_LIMIT.windowMs;
    this.now = options.now ?? (() => performance.now());
    this.configure(options);
  }

  /** Changes the limit; takes effect for requests still waiting. */
  configure(options: Pick<RateLimiterOptions, 'requests' | 'windowMs' | 'marginMs'>): void {
    if (options.marginMs !== undefined) {
      if (!Number.isFinite(options.marginMs) || options.marginMs < 0) {
        throw new RangeError('marginMs must not be negative');
      }
      this.marginMs = options.marginMs;
    }
    if (options.requests !== undefined) {
      if (!Number.isInteger(options.requests) || options.requests < 1) {
        throw new RangeError('requests must be a positive integer');
      }
      this.requests = options.requests;
    }
    if (options.windowMs !== undefined) {
      if (!Number.isFinite(options.windowMs) || options.windowMs <= 0) {
        throw new RangeError('windowMs must be positive');
      }
      this.windowMs = options.windowMs;
    }
    this.pump();
  }

  get limit(): { requests: number; windowMs: number } {
    return { requests: this.requests, windowMs: this.windowMs };
  }

  /** Milliseconds a request made now would wait (0 when a slot is free and nobody is queued). */
  get pendingDelayMs(): number {
    if (this.queue.length > 0) return Math.max(1, this.delayAt(this.now()));
    return this.delayAt(this.now());
  }

  /**
   * Waits for a slot. Requests are granted in the order they asked. Resolves with
   * the milliseconds spent waiting; rejects with the signal's reason when aborted.
   */
  acquire(signal?: AbortSignal): Promise<number> {
    return this.acquireSlot(signal).then((grant) => {
      grant.done();
      return grant.waitedMs;
    });
  }

  /**
   * Waits for a slot like `acquire`, but the grant keeps counting as "now" until `done()` is called: use it around
   * a request so the window is counted from when the server can have seen it.
   */
  acquireSlot(signal?: AbortSignal): Promise<Grant> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<Grant>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, queuedAt: this.now() };
      if (signal) {
        waiter.signal = signal;
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(abortReason(signal));
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** Blocks every grant until the given wall-clock time (after a 429); converted once to the monotonic clock. */
  penalize(untilEpochMs: number): void {
    this.penalizeFor(untilEpochMs - Date.now());
  }

  /** Blocks every grant for the next `ms` milliseconds (after a 429). */
  penalizeFor(ms: number): void {
    if (!Number.isFinite(ms) || ms <= 0) return;
    const until = this.now() + ms;
    if (until > this.blockedUntil) {
      this.blockedUntil = until;
      this.pump();
    }
  }

  /** The window the limiter enforces: the server's window plus the safety margin. */
  private get effectiveWindowMs(): number {
    return this.windowMs + (this.marginMs ?? Math.min(250, Math.round(this.windowMs * 0.1)));
  }

  private delayAt(now: number): number {
    this.prune(now);
    let delay = Math.max(0, this.blockedUntil - now);
    if (this.grants.length >= this.requests) {
      // A request still in flight can reach the server at any moment: it counts as now.
      const stamps = this.grants.map((g) => g.at ?? now).sort((a, b) => a - b);
      const oldestInWindow = stamps[stamps.length - this.requests]!;
      delay = Math.max(delay, oldestInWindow + this.effectiveWindowMs - now);
    }
    return delay;
  }

  /**
   * Drops grants that left the window. Grants are kept in the order they were given, so the expired ones are almost
   * always at the front: removing them there costs O(1) per request. One still in flight stops that sweep; a full
   * sweep runs only when the list has doubled since the last one, so a long request cannot make every call O(n).
   */
  private prune(now: number): void {
    const cutoff = now - this.effectiveWindowMs;
    let expired = 0;
    while (expired < this.grants.length) {
      const at = this.grants[expired]!.at;
      if (at === undefined || at > cutoff) break;
      expired++;
    }
    if (expired > 0) this.grants.splice(0, expired);
    if (this.grants.length > this.fullSweepAt) {
      this.grants = this.grants.filter((g) => g.at === undefined || g.at > cutoff);
      this.fullSweepAt = Math.max(FULL_SWEEP_MIN, 2 * this.grants.length);
    }
  }

  private pump(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0) {
      const now = this.now();
      const delay = this.delayAt(now);
      if (delay > 0) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, delay);
        return;
      }
      const waiter = this.queue.shift() as Waiter;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      const record: GrantRecord = { at: undefined };
      this.grants.push(record);
      waiter.resolve({
        waitedMs: now - waiter.queuedAt,
        done: () => {
          if (record.at !== undefined) return;
          record.at = this.now();
          this.pump();
        },
      });
    }
  }
}

const registry = new Map<string, RateLimiter>();

/**
 * The limiter shared by every client that uses the API key `keyId`. Options,
 * when given, reconfigure the shared limiter (e.g. after a settings change).
 */
export function limiterFor(
  keyId: string,
  options?: Pick<RateLimiterOptions, 'requests' | 'windowMs' | 'marginMs'>,
): RateLimiter {
  let limiter = registry.get(keyId);
  if (!limiter) {
    limiter = new RateLimiter(options);
    registry.set(keyId, limiter);
  } else if (options) {
    limiter.configure(options);
  }
  return limiter;
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
