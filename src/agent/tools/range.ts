/** The time range a tool call asks for: `range` (15m, 1h, 6h, 24h, 7d) or `from`/`to` (ISO 8601), else a default. */
import type { TimeRange } from '../tool';

const PRESETS: Record<string, number> = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
};

export function rangeOf(input: Record<string, unknown>, fallback = '1h', now = Date.now()): TimeRange {
  const from = typeof input.from === 'string' ? Date.parse(input.from) : NaN;
  const to = typeof input.to === 'string' ? Date.parse(input.to) : NaN;
  if (Number.isFinite(from)) {
    const end = Number.isFinite(to) ? to : now;
    if (end <= from) throw new RangeError('"to" must be after "from"');
    return { from, to: end };
  }
  const preset = typeof input.range === 'string' && Object.hasOwn(PRESETS, input.range) ? input.range : fallback;
  return { from: now - PRESETS[preset]!, to: now };
}

export function rangeText(range: TimeRange): string {
  return `${new Date(range.from).toISOString()} to ${new Date(range.to).toISOString()}`;
}
