import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { tileSearchOf } from '../../../src/preview/tileSearch';

const tile = (config: Record<string, unknown>) => ({ id: 't', config });

test('a search, heatmap or pattern tile searches its own condition in its language', () => {
  assert.deepEqual(
    tileSearchOf(
      tile({ displayType: 'search', sourceId: 'logs', where: 'SeverityText:error', whereLanguage: 'lucene' }),
    ),
    { sourceId: 'logs', condition: 'SeverityText:error', language: 'lucene' },
  );
  assert.deepEqual(
    tileSearchOf(tile({ displayType: 'event_patterns', sourceId: 'logs', where: "A = 'b'", whereLanguage: 'sql' })),
    { sourceId: 'logs', condition: "A = 'b'", language: 'sql' },
  );
});

test("a series tile searches its series' filters, joined with OR, and everything when a series has none", () => {
  const one = { aggFn: 'count', where: 'ServiceName:cart AND StatusCode:Error', whereLanguage: 'lucene' };
  assert.deepEqual(tileSearchOf(tile({ displayType: 'number', sourceId: 'traces', select: [one] })), {
    sourceId: 'traces',
    condition: 'ServiceName:cart AND StatusCode:Error',
    language: 'lucene',
  });
  const two = { aggFn: 'count', where: 'SpanKind:Server' };
  assert.deepEqual(tileSearchOf(tile({ displayType: 'line', sourceId: 'traces', select: [one, two] })), {
    sourceId: 'traces',
    condition: '(ServiceName:cart AND StatusCode:Error) OR (SpanKind:Server)',
    language: 'lucene',
  });
  assert.deepEqual(tileSearchOf(tile({ displayType: 'line', sourceId: 'traces', select: [one, { aggFn: 'count' }] })), {
    sourceId: 'traces',
    condition: '',
    language: 'lucene',
  });
});

test('no search for a tile without a source, a Markdown or raw SQL tile, or series in two languages', () => {
  assert.equal(tileSearchOf(tile({ displayType: 'markdown', markdown: '# x' })), undefined);
  assert.equal(
    tileSearchOf(tile({ displayType: 'table', configType: 'sql', sourceId: 's', sqlTemplate: 'SELECT 1' })),
    undefined,
  );
  assert.equal(tileSearchOf(tile({ displayType: 'line', select: [{ aggFn: 'count' }] })), undefined);
  const mixed = [
    { aggFn: 'count', where: 'a:b', whereLanguage: 'lucene' },
    { aggFn: 'count', where: "a = 'b'", whereLanguage: 'sql' },
  ];
  assert.equal(tileSearchOf(tile({ displayType: 'line', sourceId: 's', select: mixed })), undefined);
});
