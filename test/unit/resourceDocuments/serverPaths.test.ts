import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTree } from 'jsonc-parser';
import {
  idsInMessage,
  locateServerProblem,
  pathInMessage,
  serverPathSegments,
} from '../../../src/resourceDocuments/serverPaths';

/** A dashboard document as the editors write it (two-space JSON). */
const DOC = `${JSON.stringify(
  {
    name: 'Checkout',
    tiles: [
      { id: 't1', name: 'Rate', x: 0, y: 0, w: 6, h: 3, config: { displayType: 'line', sourceId: 'src-logs' } },
      {
        id: 't2',
        name: 'Latency',
        x: 6,
        y: 0,
        w: 40,
        h: 3,
        config: { displayType: 'heatmap', sourceId: 'src-logs-2', select: [{ valueExpression: 'Duration' }] },
      },
    ],
    filters: [{ type: 'QUERY_EXPRESSION', name: 'Service', expression: 'ServiceName', sourceId: 'src-logs' }],
  },
  null,
  2,
)}\n`;

/** The text a span covers. */
function covered(path: string, message = 'x'): { text: string; line: number; how: string; path: unknown } {
  const p = locateServerProblem(parseTree(DOC), DOC, path, message);
  return {
    text: DOC.slice(p.span.offset, p.span.offset + p.span.length),
    line: DOC.slice(0, p.span.offset).split('\n').length,
    how: p.how,
    path: p.path,
  };
}

const lineOf = (needle: string): number => DOC.slice(0, DOC.indexOf(needle)).split('\n').length;

describe('server problem paths → text', () => {
  it('reads dot-separated paths with numeric segments as array indexes (and JSON pointers)', () => {
    assert.deepEqual(serverPathSegments('tiles.0.config.select'), ['tiles', 0, 'config', 'select']);
    assert.deepEqual(serverPathSegments(''), []);
    assert.deepEqual(serverPathSegments('/tiles/1/w'), ['tiles', 1, 'w']);
    assert.deepEqual(serverPathSegments('/'), []);
    assert.deepEqual(serverPathSegments('a~1b'), ['a~1b']);
    assert.deepEqual(serverPathSegments('/a~1b/c~0d'), ['a/b', 'c~d']);
  });

  it('puts a problem with a path on the value it names', () => {
    const w = covered('tiles.1.w');
    assert.equal(w.text, '40');
    assert.equal(w.line, lineOf('"w": 40'));
    assert.equal(w.how, 'exact');
    const source = covered('tiles.1.config.sourceId');
    assert.equal(source.text, '"src-logs-2"');
    assert.equal(covered('name').text, '"Checkout"');
  });

  it('puts a problem of an object or array on its property name', () => {
    const config = covered('tiles.0.config');
    assert.equal(config.text, '"config"');
    assert.equal(config.line, lineOf('"config": {\n        "displayType": "line"'));
    assert.equal(covered('filters').text, '"filters"');
  });

  it('puts a missing field at the closest parent that exists (where it must be added)', () => {
    const missing = covered('tiles.0.config.select');
    assert.equal(missing.text, '"config"');
    assert.equal(missing.how, 'parent');
    assert.deepEqual(missing.path, ['tiles', 0, 'config']);
    const outOfRange = covered('tiles.7.w');
    assert.equal(outOfRange.text, '"tiles"');
  });

  it('falls back to the first line for a path that matches nothing, and for the whole body', () => {
    for (const path of ['nothing.here', '']) {
      const p = covered(path);
      assert.equal(p.how, 'document');
      assert.equal(p.line, 1);
      assert.equal(p.text, '{');
    }
  });

  it('finds the field a tile rule names at the start of its message', () => {
    assert.deepEqual(pathInMessage('tiles.1.containerId: container "c9" is not declared'), {
      path: ['tiles', 1, 'containerId'],
      rest: 'container "c9" is not declared',
    });
    assert.equal(pathInMessage('Heatmap tiles require a Trace source.'), undefined);
    const p = covered('', 'tiles.1.w: must be at most 24');
    assert.equal(p.text, '40');
    assert.equal(p.how, 'message');
  });

  it('finds the first ID a whole-body message lists', () => {
    assert.deepEqual(idsInMessage('Could not find the following source IDs: a, b'), ['a', 'b']);
    assert.deepEqual(
      idsInMessage('Heatmap tiles require a Trace source. The following source IDs are not Trace sources: src-logs-2'),
      ['src-logs-2'],
    );
    assert.deepEqual(idsInMessage('Required'), []);
    const heatmap = covered(
      '',
      'Heatmap tiles require a Trace source. The following source IDs are not Trace sources: src-logs-2',
    );
    assert.equal(heatmap.text, '"src-logs-2"');
    assert.equal(heatmap.line, lineOf('"sourceId": "src-logs-2"'));
    assert.deepEqual(heatmap.path, ['tiles', 1, 'config', 'sourceId']);
    // The value, not a key of the same spelling; the first occurrence in the text.
    const missing = covered('', 'Could not find the following source IDs: nope, src-logs');
    assert.equal(missing.text, '"src-logs"');
    assert.equal(missing.line, lineOf('"sourceId": "src-logs"'));
    assert.equal(covered('', 'Could not find the following source IDs: nope').how, 'document');
  });

  it('maps onto text with syntax errors and onto empty text without throwing', () => {
    const text = '{\n  "name": "x",\n  "tiles": [\n';
    const broken = locateServerProblem(parseTree(text), text, 'name', 'Required');
    assert.equal(broken.how, 'exact');
    const empty = locateServerProblem(parseTree(''), '', 'name', 'Required');
    assert.equal(empty.how, 'document');
    assert.deepEqual(empty.span, { offset: 0, length: 0 });
  });
});
