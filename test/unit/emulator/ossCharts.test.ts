import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator';
import { luceneToSql } from '../../emulator/oss/charts';
import { failOnResponseIssues } from './helpers';

failOnResponseIssues();

interface Row {
  ts_bucket: number;
  group: string[];
  [series: string]: unknown;
}

describe('emulator: self-hosted charts/series from the embedded ClickHouse', () => {
  let emu: Emulator;
  let logsId: string;
  let tracesId: string;
  const headers = (): Record<string, string> => ({
    authorization: `Bearer ${emu.ossApiKey}`,
    'content-type': 'application/json',
  });
  const series = async (body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${emu.url}/api/v2/charts/series`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  before(async () => {
    emu = await startEmulator({ flavor: 'oss', rateLimit: false });
    const sources = (
      (await (await fetch(`${emu.url}/api/v2/sources`, { headers: headers() })).json()) as {
        data: { id: string; kind: string }[];
      }
    ).data;
    logsId = sources.find((s) => s.kind === 'log')?.id ?? '';
    tracesId = sources.find((s) => s.kind === 'trace')?.id ?? '';
  });
  after(() => emu.close());

  it('buckets counts per group and merges several series by bucket and group', async () => {
    const end = Date.now();
    const start = end - 3600_000;
    const r = await series({
      startTime: start,
      endTime: end,
      granularity: '5m',
      series: [
        {
          sourceId: logsId,
          aggFn: 'count',
          where: 'SeverityText:error OR SeverityText:warn',
          groupBy: ['ServiceName'],
        },
        { sourceId: logsId, aggFn: 'count', where: '', groupBy: ['ServiceName'] },
      ],
    });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const rows = r.json.data as Row[];
    assert.ok(rows.length > 0);
    for (const row of rows) {
      assert.equal(row.ts_bucket % 300_000, 0);
      assert.ok(row.ts_bucket >= start - 300_000 && row.ts_bucket < end);
      assert.equal(row.group.length, 1);
      assert.equal(typeof row['series_1.data'], 'number');
      // A filtered count never exceeds the unfiltered one of the same bucket and group.
      if (row['series_0.data'] !== undefined) {
        assert.ok((row['series_0.data'] as number) <= (row['series_1.data'] as number));
      }
    }
    assert.ok(
      rows.some((row) => row['series_0.data'] !== undefined),
      'some errors or warnings in the last hour',
    );
  });

  it('aggregates a field with auto granularity, and answers the route errors in {error}', async () => {
    const end = Date.now();
    const r = await series({
      startTime: end - 86_400_000,
      endTime: end,
      series: [{ sourceId: tracesId, aggFn: 'quantile', field: 'Duration', where: '', groupBy: [] }],
    });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const rows = r.json.data as Row[];
    assert.ok(rows.length >= 24 && rows.length <= 61, String(rows.length));
    assert.ok(rows.every((row) => (row['series_0.data'] as number) > 0));

    const missing = await series({
      startTime: end - 60_000,
      endTime: end,
      series: [{ sourceId: '65f5e4a3b9e77c001a999999', aggFn: 'count', where: '', groupBy: [] }],
    });
    assert.deepEqual(missing, { status: 404, json: { error: 'Source not found for series 0' } });
    const mixed = await series({
      startTime: end - 60_000,
      endTime: end,
      series: [
        { sourceId: logsId, aggFn: 'count', where: '', groupBy: ['ServiceName'] },
        { sourceId: logsId, aggFn: 'count', where: '', groupBy: [] },
      ],
    });
    assert.deepEqual(mixed, { status: 400, json: { error: 'All series must have the same groupBy fields' } });
    const invalid = await series({ startTime: end - 60_000, endTime: end, series: [] });
    assert.equal(invalid.status, 400);
    assert.match(String(invalid.json.message), /^Body validation failed: series: /);
  });

  it('searches rows of a source: default columns and window, filters, paging, and the errors in {message}', async () => {
    const search = async (body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
      const res = await fetch(`${emu.url}/api/v2/search`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    const all = await search({ sourceId: logsId });
    assert.equal(all.status, 200);
    const rows = all.json.data as Record<string, unknown>[];
    assert.equal(rows.length, 100);
    assert.equal(all.json.rows, 100);
    assert.deepEqual(Object.keys(rows[0] ?? {}), ['Timestamp', 'ServiceName', 'SeverityText', 'Body']);
    assert.ok(String(rows[0]?.Timestamp) >= String(rows[99]?.Timestamp), 'newest first');
    const errors = await search({
      sourceId: logsId,
      where: "SeverityText = 'error'",
      whereLanguage: 'sql',
      maxResults: 3,
      offset: 1,
      select: 'SeverityText',
    });
    assert.deepEqual(errors.json.data, [
      { SeverityText: 'error' },
      { SeverityText: 'error' },
      { SeverityText: 'error' },
    ]);
    const window = await search({
      sourceId: logsId,
      startTime: '2026-01-02T00:00:00Z',
      endTime: '2026-01-01T00:00:00Z',
    });
    assert.deepEqual(window, { status: 400, json: { message: 'startTime must be before endTime' } });
    assert.equal((await search({ sourceId: logsId, select: 'Body; DROP TABLE x' })).status, 400);
    assert.deepEqual(await search({ sourceId: '65f5e4a3b9e77c001a999999' }), {
      status: 404,
      json: { message: 'Source not found' },
    });
    assert.equal((await search({ sourceId: logsId, maxResults: 5000 })).status, 400);
  });

  it('turns the supported Lucene subset into SQL and refuses the rest', () => {
    assert.equal(luceneToSql('SeverityText:ERROR', 'Body'), "(toString(`SeverityText`) = 'ERROR')");
    assert.equal(
      luceneToSql('timeout -ServiceName:cart*', 'Body'),
      "(positionCaseInsensitive(toString(Body), 'timeout') > 0) AND NOT (startsWith(toString(`ServiceName`), 'cart'))",
    );
    assert.equal(luceneToSql('a:"x y" OR NOT b:z', 'Body'), "(toString(`a`) = 'x y') OR NOT (toString(`b`) = 'z')");
    assert.throws(() => luceneToSql('(a:b)', 'Body'));
  });
});
