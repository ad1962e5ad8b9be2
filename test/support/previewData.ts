/**
 * Fixed, realistic data for the preview and backtest panels (tests, UI screenshots, the bench): deterministic series
 * shaped like a shop's traffic (daily rhythm, noise, an incident), a 12-tile dashboard laid out like the emulator's
 * seeded service dashboard, and an alert backtest with its fired windows and transitions worked out from the series.
 */
import type {
  DashboardData,
  FiredWindow,
  PreviewData,
  Threshold,
  TimeseriesData,
  Transition,
} from '../../src/preview/protocol';

const MINUTE = 60_000;

/** A small deterministic random source (same numbers on every run). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `count` buckets of `stepMs` ending at `end` (aligned), one value per series per bucket. */
export function trafficSeries(opts: {
  end: number;
  count: number;
  stepMs: number;
  names: string[];
  base?: number;
  seed?: number;
  incidentAt?: number;
  incidentMs?: number;
  nullEvery?: number;
}): TimeseriesData {
  const { count, stepMs, names } = opts;
  const end = Math.floor(opts.end / stepMs) * stepMs;
  const start = end - count * stepMs;
  const times = new Array<number>(count);
  for (let i = 0; i < count; i++) times[i] = start + i * stepMs;
  const base = opts.base ?? 120;
  const series = names.map((name, k) => {
    const rnd = lcg((opts.seed ?? 7) * 31 + k);
    const scale = base / (k + 1.5);
    const values = new Array<number | null>(count);
    for (let i = 0; i < count; i++) {
      const t = times[i] as number;
      const day = Math.sin(((t / 86_400_000) % 1) * 2 * Math.PI - Math.PI / 2) * 0.45 + 1;
      const incident =
        opts.incidentAt !== undefined && Math.abs(t - opts.incidentAt) < (opts.incidentMs ?? 20 * stepMs) ? 2.2 : 1;
      const v = scale * day * incident * (0.85 + rnd() * 0.3);
      values[i] = opts.nullEvery && i % opts.nullEvery === opts.nullEvery - 1 ? null : Math.round(v * 10) / 10;
    }
    return { name, values };
  });
  return { kind: 'timeseries', times, series };
}

/** The bench's data: 7 days at 1-minute buckets × 5 series = 50,400 points. */
export function weekOfMinutes(end: number): TimeseriesData {
  return {
    ...trafficSeries({
      end,
      count: 7 * 24 * 60,
      stepMs: MINUTE,
      names: ['frontend', 'checkout', 'cart', 'payment', 'shipping'],
    }),
    title: 'Requests per minute by service',
    display: 'line',
  };
}

const fires = (v: number | null, th: Threshold): boolean => {
  if (v === null) return false;
  const max = th.max ?? Infinity;
  switch (th.type) {
    case 'above':
      return v > th.value;
    case 'below':
      return v < th.value;
    case 'between':
      return v >= th.value && v <= max;
    default:
      return v < th.value || v > max;
  }
};

/** Windows and transitions of a single-series check against a threshold (fixture data, one window per bucket). */
export function evaluateFixture(
  d: TimeseriesData,
  th: Threshold,
  stepMs: number,
): { firedWindows: FiredWindow[]; transitions: Transition[] } {
  const values = d.series[0]?.values ?? [];
  const firedWindows: FiredWindow[] = [];
  const transitions: Transition[] = [];
  let state: 'OK' | 'ALERT' = 'OK';
  d.times.forEach((t, i) => {
    const v = values[i] ?? null;
    const on = fires(v, th);
    if (on) firedWindows.push({ start: t, end: t + stepMs, value: v });
    const next = on ? 'ALERT' : 'OK';
    if (next !== state) transitions.push({ time: t + stepMs, from: state, to: next, value: v });
    state = next;
  });
  return { firedWindows, transitions };
}

/** A backtest of "Checkout errors" (count of error logs per 15 minutes over 24 h) against a threshold. */
export function checkoutBacktest(end: number, threshold: Threshold = { type: 'above', value: 40 }): TimeseriesData {
  const step = 15 * MINUTE;
  const d = trafficSeries({
    end,
    count: 96,
    stepMs: step,
    names: ['errors'],
    base: 30,
    seed: 3,
    incidentAt: end - 5 * 3_600_000,
    incidentMs: 40 * MINUTE,
  });
  const out: TimeseriesData = {
    ...d,
    title: 'Checkout errors',
    subtitle: 'count() of error logs · every 15 m · last 24 h',
    display: 'line',
    threshold,
  };
  return { ...out, ...evaluateFixture(out, threshold, step) };
}

/** A 12-tile dashboard laid out like the emulator's seeded service dashboard (24-column grid). */
export function checkoutDashboard(end: number): DashboardData {
  const hour = (names: string[], seed: number, base = 120): TimeseriesData =>
    trafficSeries({ end, count: 60, stepMs: MINUTE, names, seed, base });
  return {
    kind: 'dashboard',
    title: 'Checkout service',
    subtitle: 'last 1 h · 1 minute buckets',
    tiles: [
      {
        id: 't01',
        name: 'p95 latency (ms)',
        x: 0,
        y: 0,
        w: 12,
        h: 4,
        data: {
          ...hour(['POST /api/checkout', 'GET /api/cart', 'POST /api/payment'], 1, 400),
          display: 'line',
          numberFormat: { output: 'number', mantissa: 0 },
        },
      },
      {
        id: 't02',
        name: 'Requests by status code',
        x: 12,
        y: 0,
        w: 12,
        h: 4,
        data: {
          ...trafficSeries({ end, count: 30, stepMs: 2 * MINUTE, names: ['200', '404', '500'], seed: 2, base: 300 }),
          display: 'stacked_bar',
        },
      },
      {
        id: 't03',
        name: 'Error rate',
        x: 0,
        y: 4,
        w: 6,
        h: 3,
        data: { kind: 'number', value: 0.0342, numberFormat: { output: 'percent', mantissa: 2 } },
      },
      {
        id: 't04',
        name: 'Slowest endpoints',
        x: 6,
        y: 4,
        w: 12,
        h: 5,
        data: {
          kind: 'table',
          columns: [
            { name: 'SpanName', type: 'String' },
            { name: 'p99 (ms)', type: 'Float64' },
            { name: 'requests', type: 'UInt64' },
          ],
          rows: [
            ['POST /api/payment', 1840.2, 5312],
            ['POST /api/checkout', 1210.7, 8120],
            ['GET /api/recommendations', 640.1, 20433],
            ['GET /api/cart', 212.9, 40210],
            ['GET /api/product/{id}', 98.4, 122870],
          ],
        },
      },
      {
        id: 't05',
        name: 'Requests',
        x: 18,
        y: 4,
        w: 6,
        h: 2,
        data: { kind: 'number', value: 1_284_530, numberFormat: { output: 'number', thousandSeparated: true } },
      },
      {
        id: 't06',
        name: 'Bytes sent',
        x: 18,
        y: 6,
        w: 6,
        h: 3,
        data: { kind: 'number', value: 7_516_192_768, numberFormat: { output: 'byte' } },
      },
      {
        id: 't07',
        name: 'Error logs',
        x: 0,
        y: 7,
        w: 6,
        h: 5,
        data: {
          kind: 'search',
          lines: [
            {
              time: end - 42_000,
              severity: 'ERROR',
              service: 'checkout',
              body: 'payment declined: card_expired (order 81723)',
            },
            {
              time: end - 97_000,
              severity: 'WARN',
              service: 'checkout',
              body: 'retrying cart lookup after 503 from cart-service',
            },
            {
              time: end - 160_000,
              severity: 'ERROR',
              service: 'payment',
              body: 'timeout after 5000 ms calling https://psp.example/charge',
            },
            {
              time: end - 220_000,
              severity: 'INFO',
              service: 'checkout',
              body: 'order 81711 placed (3 items, 112.40 EUR)',
            },
          ],
        },
      },
      {
        id: 't08',
        name: 'Notes',
        x: 6,
        y: 9,
        w: 6,
        h: 3,
        data: {
          kind: 'markdown',
          text: '## Runbook\n\n- **Errors > 40/15 m**: page the *checkout* on-call\n- Dashboards: `payment`, `cart`\n\n[Runbook](https://wiki.example/checkout)',
        },
      },
      {
        id: 't09',
        name: 'Error ratio',
        x: 12,
        y: 9,
        w: 6,
        h: 3,
        data: { kind: 'unsupported', reason: 'formulas are not previewed yet' },
      },
      {
        id: 't10',
        name: 'Queue depth',
        x: 18,
        y: 9,
        w: 6,
        h: 3,
        data: { ...hour(['orders'], 9, 30), display: 'line' },
      },
      {
        id: 't11',
        name: 'Log volume by severity',
        x: 0,
        y: 12,
        w: 12,
        h: 4,
        data: {
          ...trafficSeries({
            end,
            count: 30,
            stepMs: 2 * MINUTE,
            names: ['INFO', 'WARN', 'ERROR'],
            seed: 11,
            base: 500,
          }),
          display: 'stacked_bar',
        },
      },
      {
        id: 't12',
        name: 'CPU by pod',
        x: 12,
        y: 12,
        w: 12,
        h: 4,
        data: {
          ...hour(['checkout-7d9f', 'checkout-b21c', 'checkout-e08a'], 12, 80),
          display: 'line',
          numberFormat: { output: 'number', mantissa: 1, unit: '%' },
        },
      },
    ],
  };
}

/** One of each single-tile kind, keyed by kind. */
export function singleTiles(end: number): Record<string, PreviewData> {
  const dash = checkoutDashboard(end);
  const tile = (id: string) => {
    const t = dash.tiles.find((x) => x.id === id)!;
    return { ...t.data, title: t.name };
  };
  return {
    line: tile('t01'),
    stacked: tile('t02'),
    number: tile('t05'),
    table: tile('t04'),
    search: tile('t07'),
    markdown: tile('t08'),
    unsupported: tile('t09'),
  };
}
