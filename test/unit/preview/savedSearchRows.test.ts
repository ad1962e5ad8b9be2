import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderTile } from '../../../src/render';
import { recordsToResult, savedSearchTile } from '../../../src/preview/savedSearchRows';

describe('Run Saved Search: the search and its rows', () => {
  it('is the search tile of the saved search (source, columns, filter, language)', () => {
    const tile = savedSearchTile({
      id: 's1',
      name: 'Checkout errors',
      sourceId: 'src1',
      select: 'Timestamp, Body',
      where: 'SeverityText:error',
      whereLanguage: null,
    });
    assert.deepEqual(tile, {
      id: 's1',
      name: 'Checkout errors',
      config: {
        displayType: 'search',
        sourceId: 'src1',
        select: 'Timestamp, Body',
        where: 'SeverityText:error',
        whereLanguage: 'lucene',
      },
    });
    const source = {
      id: 'src1',
      kind: 'log',
      from: { databaseName: 'default', tableName: 'otel_logs' },
      timestampValueExpression: 'Timestamp',
    };
    const r = renderTile(tile, { range: { from: 0, to: 3_600_000 }, source, searchLimit: 1000 });
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.match(r.sql, /FROM `default`\.`otel_logs`/);
    assert.match(r.sql, /ORDER BY Timestamp DESC/);
    assert.match(r.sql, /LIMIT 1000/);
  });

  it('turns the search API rows into a table: columns in order of first appearance, missing values null', () => {
    const result = recordsToResult([{ a: 1, b: 'x' }, { b: 'y', c: true }, { a: null }], 12);
    assert.deepEqual(
      result.columns.map((c) => c.name),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(result.rows, [
      [1, 'x', null],
      [null, 'y', true],
      [null, null, null],
    ]);
    assert.equal(result.elapsedMs, 12);
    assert.deepEqual(recordsToResult([], 0).rows, []);
  });
});
