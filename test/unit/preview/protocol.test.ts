/**
 * The preview webview's message protocol and its pure helpers: what the host accepts from the webview, ranges, the
 * tables behind Copy / Open as Table, number formats, the safe Markdown parser and the y range around thresholds.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  dataAsTable,
  parseFromWebview,
  parseRange,
  parseWebviewState,
  resolveRange,
  toTsv,
} from '../../../src/preview/protocol';
import { backtestDataOf } from '../../../src/preview/data';
import { formatNumber, parseInline, parseMarkdown, yRange } from '../../../src/preview/webview/format';

describe('preview protocol', () => {
  it("reads a restored panel's saved state: range, scroll and what it showed, nothing else", () => {
    assert.deepEqual(
      parseWebviewState({
        range: { preset: '7d' },
        scrollTop: 120,
        restore: { kind: 'alert', args: { connectionId: 'c1', serviceId: 's1', alertId: 'a1', evil: 'x', n: 3 } },
      }),
      {
        range: { preset: '7d' },
        scrollTop: 120,
        restore: { kind: 'alert', args: { connectionId: 'c1', serviceId: 's1', alertId: 'a1' } },
      },
    );
    assert.deepEqual(
      parseWebviewState({
        restore: { kind: 'tile', args: { uri: 'observability:/c/s/dashboards/d.dashboard.json', tileId: 't' } },
      }),
      { restore: { kind: 'tile', args: { uri: 'observability:/c/s/dashboards/d.dashboard.json', tileId: 't' } } },
    );
    for (const bad of [
      undefined,
      null,
      'x',
      [],
      { range: { preset: '2h' }, scrollTop: -1 },
      { restore: { kind: 'query', args: { uri: 'u' } } },
      { restore: { kind: 'tile', args: {} } },
    ]) {
      assert.deepEqual(parseWebviewState(bad), {}, JSON.stringify(bad));
    }
  });

  it('accepts the webview messages it knows and drops anything else', () => {
    assert.deepEqual(parseFromWebview({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseFromWebview({ type: 'refresh', extra: 1 }), { type: 'refresh' });
    assert.deepEqual(parseFromWebview({ type: 'range', range: { preset: '6h' } }), {
      type: 'range',
      range: { preset: '6h' },
    });
    assert.deepEqual(parseFromWebview({ type: 'copy', tileId: 't1' }), { type: 'copy', tileId: 't1' });
    assert.deepEqual(parseFromWebview({ type: 'openTable' }), { type: 'openTable' });
    assert.deepEqual(parseFromWebview({ type: 'search', tileId: 't2' }), { type: 'search', tileId: 't2' });
    for (const bad of [
      null,
      'ready',
      [],
      { type: 'run' },
      { type: 'range', range: { preset: '2h' } },
      { type: 'copy', tileId: 7 },
      { type: 'search', tileId: { id: 't2' } },
      { type: 'rendered', seq: 'x', ms: 1, summary: {} },
    ]) {
      assert.equal(parseFromWebview(bad), undefined, JSON.stringify(bad));
    }
  });

  it('takes a custom range only when it starts before it ends', () => {
    assert.deepEqual(parseRange({ preset: 'custom', from: 1000, to: 2000 }), {
      preset: 'custom',
      from: 1000,
      to: 2000,
    });
    assert.equal(parseRange({ preset: 'custom', from: 2000, to: 1000 }), undefined);
    assert.equal(parseRange({ preset: 'custom', from: 'yesterday', to: 1000 }), undefined);
    assert.deepEqual(resolveRange({ preset: '15m' }, 1_000_000), { from: 100_000, to: 1_000_000 });
    assert.deepEqual(resolveRange({ preset: '7d' }, 700_000_000), { from: 700_000_000 - 604_800_000, to: 700_000_000 });
  });

  it('turns a time series into a table with one column per series and empty cells for gaps', () => {
    const table = dataAsTable({
      kind: 'timeseries',
      times: [Date.UTC(2026, 10, 22, 14, 0), Date.UTC(2026, 10, 22, 14, 1)],
      series: [
        { name: 'checkout', values: [3, null] },
        { name: 'cart', values: [1, 2] },
      ],
    });
    assert.deepEqual(table, {
      columns: ['time', 'checkout', 'cart'],
      rows: [
        ['2026-11-22T14:00:00.000Z', 3, 1],
        ['2026-11-22T14:01:00.000Z', null, 2],
      ],
    });
    assert.equal(toTsv(table!), 'time\tcheckout\tcart\n2026-11-22T14:00:00.000Z\t3\t1\n2026-11-22T14:01:00.000Z\t\t2');
    assert.equal(toTsv({ columns: ['body'], rows: [['a\tb\nc']] }), 'body\na b c');
    assert.equal(dataAsTable({ kind: 'markdown', text: '# hi' }), undefined);
  });

  it('turns a heatmap into one row per cell with a count: time, value bucket, its edges, rows', () => {
    const t = Date.UTC(2026, 10, 22, 14, 0);
    const table = dataAsTable({
      kind: 'heatmap',
      scale: 'linear',
      times: [t, t + 15_000],
      stepMs: 15_000,
      lo: 0,
      hi: 80,
      buckets: 80,
      cells: [
        { time: t, bucket: 0, from: null, to: 0, count: 2 },
        { time: t, bucket: 3, from: 2, to: 3, count: 5 },
        { time: t + 15_000, bucket: 81, from: 80, to: null, count: 1 },
      ],
    });
    assert.deepEqual(table, {
      columns: ['time', 'bucket', 'from', 'to', 'count'],
      rows: [
        ['2026-11-22T14:00:00.000Z', 0, null, 0, 2],
        ['2026-11-22T14:00:00.000Z', 3, 2, 3, 5],
        ['2026-11-22T14:00:15.000Z', 81, 80, null, 1],
      ],
    });
  });
});

describe('preview formats', () => {
  it('formats numbers as the simple numberFormat outputs ask', () => {
    assert.equal(formatNumber(1234567, { output: 'number', thousandSeparated: true }), '1,234,567');
    assert.equal(formatNumber(1234567, { output: 'number', thousandSeparated: false }), '1234567');
    assert.equal(formatNumber(0.0342, { output: 'percent', mantissa: 1 }), '3.4%');
    assert.equal(formatNumber(12.5, { output: 'currency', currencySymbol: '€' }), '€12.50');
    assert.equal(formatNumber(1536, { output: 'byte' }), '1.5 KiB');
    assert.equal(formatNumber(1500, { output: 'byte', decimalBytes: true }), '1.5 kB');
    assert.equal(formatNumber(2_500_000, { average: true }), '2.5M');
    assert.equal(formatNumber(3, { factor: 1000, unit: 'ms' }), '3,000 ms');
    assert.equal(formatNumber(null), '—');
    assert.equal(formatNumber(Number.NaN), '—');
  });

  it('parses Markdown into plain nodes: HTML stays text and links are never followed', () => {
    const blocks = parseMarkdown(
      '# Checkout\n\nSee **p95** and `latency`.\n\n- one\n- <img src=x onerror=alert(1)>\n\n[docs](javascript:alert%281%29)\n\n```\n<script>1</script>\n```',
    );
    assert.deepEqual(blocks[0], { t: 'heading', level: 1, children: [{ t: 'text', text: 'Checkout' }] });
    assert.deepEqual(blocks[1], {
      t: 'paragraph',
      children: [
        { t: 'text', text: 'See ' },
        { t: 'strong', children: [{ t: 'text', text: 'p95' }] },
        { t: 'text', text: ' and ' },
        { t: 'code', text: 'latency' },
        { t: 'text', text: '.' },
      ],
    });
    assert.deepEqual(blocks[2], {
      t: 'list',
      ordered: false,
      items: [[{ t: 'text', text: 'one' }], [{ t: 'text', text: '<img src=x onerror=alert(1)>' }]],
    });
    assert.deepEqual(blocks[3], {
      t: 'paragraph',
      children: [{ t: 'link', text: 'docs', href: 'javascript:alert%281%29' }],
    });
    assert.deepEqual(blocks[4], { t: 'code', text: '<script>1</script>' });
    assert.deepEqual(parseInline('a_b_c and *x*'), [
      { t: 'text', text: 'a_b_c and ' },
      { t: 'em', children: [{ t: 'text', text: 'x' }] },
    ]);
  });

  it('widens the y range to keep the threshold and its upper bound in view', () => {
    const [lo, hi] = yRange(10, 20, { type: 'above', value: 50 });
    assert.ok(lo <= 10 && hi >= 50, `${lo}..${hi}`);
    const [lo2, hi2] = yRange(100, 120, { type: 'not_between', value: 40, max: 150 });
    assert.ok(lo2 <= 40 && hi2 >= 150, `${lo2}..${hi2}`);
    assert.deepEqual(
      yRange(5, 5).map((v) => Math.round(v * 100) / 100),
      [4.45, 5.55],
      'a flat series gets room above and below',
    );
  });
});

describe('what the backtest panel is sent', () => {
  it('each transition names its series, and the rule (window, consecutive windows) comes with the threshold', () => {
    const at = Date.UTC(2026, 10, 26, 11, 55);
    const group = (g: string, state: 'OK' | 'ALERT', value: number) => ({ group: g, state, value });
    const evaluation = {
      at,
      windowStart: at - 300_000,
      windowEnd: at,
      state: 'ALERT' as const,
      groups: [group('SpanName:checkout', 'ALERT', 2), group('SpanName:pay', 'ALERT', 3)],
    };
    const data = backtestDataOf(
      { threshold: 1.5, thresholdType: 'above', interval: '5m', numConsecutiveWindows: 2 },
      {
        evaluations: [evaluation],
        fired: [evaluation],
        transitions: [
          { at, group: 'SpanName:checkout', from: 'PENDING', to: 'ALERT', value: 2 },
          { at, group: 'SpanName:pay', from: 'PENDING', to: 'ALERT', value: 3 },
        ],
        lastState: 'ALERT',
        lastFiredAt: at,
      },
    );
    assert.equal(data.kind, 'timeseries');
    if (data.kind !== 'timeseries') return;
    assert.deepEqual([data.rule?.interval, data.rule?.numConsecutiveWindows], ['5m', 2]);
    assert.deepEqual(
      data.transitions?.map((t) => [t.series, t.from, t.to]),
      [
        ['SpanName:checkout', 'OK', 'ALERT'],
        ['SpanName:pay', 'OK', 'ALERT'],
      ],
    );
    assert.deepEqual(
      data.series.map((s) => s.name),
      ['SpanName:checkout', 'SpanName:pay'],
    );
  });

  it('shows durations as ClickStack does (the value in seconds, times the factor)', () => {
    assert.equal(formatNumber(0.045, { output: 'duration' }), '45ms');
    assert.equal(formatNumber(1.5, { output: 'duration' }), '1.5s');
    assert.equal(formatNumber(1500, { output: 'duration', factor: 0.001 }), '1.5s');
    assert.equal(formatNumber(135, { output: 'duration' }), '2.25min');
    assert.equal(formatNumber(0.000003, { output: 'duration' }), '3µs');
  });
});
