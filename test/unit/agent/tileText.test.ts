/** A tile's data as the agent's tools give it: an event pattern tile as its patterns, counts and levels. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tileText } from '../../../src/agent/tools/tileText';

describe("Agent tools: a tile's data as text", () => {
  it('gives an event pattern tile as its patterns with their counts and levels, most frequent first', () => {
    const out = tileText(
      {
        kind: 'patterns',
        patterns: [
          { pattern: 'GET /api/<*> <*> in <*> ms', countText: '~282', level: 'info' },
          { pattern: 'Slow query took <*> ms', countText: '~19', level: 'warn' },
        ],
      },
      {},
    );
    assert.equal(out.ok, true);
    const lines = out.data.split('\n');
    assert.match(lines[0] ?? '', /count \| level \| pattern/);
    assert.match(lines[1] ?? '', /~282 \| info \| GET \/api\/<\*> <\*> in <\*> ms/);
    assert.match(lines[2] ?? '', /~19 \| warn \| Slow query took <\*> ms/);
  });
});
