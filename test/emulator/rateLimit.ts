/** Sliding-window request limit per API key (the live service allows 10 requests per 10 s per key). */
export class KeyRateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    public requests: number,
    public windowMs: number,
  ) {}

  /** Records a request; returns 0 when allowed, otherwise the milliseconds until a slot frees up. */
  hit(key: string, now = Date.now()): number {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length >= this.requests) {
      this.hits.set(key, list);
      return Math.max(1, (list[0] as number) + this.windowMs - now);
    }
    list.push(now);
    this.hits.set(key, list);
    return 0;
  }

  clear(): void {
    this.hits.clear();
  }
}
