/** Counting what JSON parsing would build, before it is parsed (src/api/jsonBounds.ts). */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { countJsonContainers, scanLines } from '../../../src/api/jsonBounds';

describe('JSON bounds', () => {
  it('counts objects and arrays outside strings, whatever the strings hold', () => {
    assert.equal(countJsonContainers('{"a":[1,2,{"b":{}}],"c":"{[{["}'), 4);
    assert.equal(countJsonContainers('["\\"{[", "\\\\", {}]'), 2, 'escaped quotes and backslashes end strings right');
    assert.equal(countJsonContainers('[1, 2, "x", null, true]'), 1);
    assert.equal(countJsonContainers('"an unclosed string {[{['), 0);
  });

  it('stops counting once the bound is passed', () => {
    const text = `[${'{},'.repeat(1_000_000)}{}]`;
    assert.equal(countJsonContainers(text, 10), 11);
    assert.equal(countJsonContainers(text), 1_000_002);
  });

  it('counts per line: names the first line over the bound, and a string left open ends with its line', () => {
    assert.deepEqual(scanLines('["a"]\n["b"]\n[[],[]]', 10, 100), { lines: 3, containers: 5 });
    assert.deepEqual(scanLines('["a"]\n[[],[],[]]\n[1]', 3, 100), { lines: 2, containers: 5, overLine: 1 });
    assert.deepEqual(scanLines('["open\n[[]]', 10, 100), { lines: 2, containers: 3 });
    assert.deepEqual(scanLines('[[]]\n[[]]\n[[]]', 10, 3), { lines: 2, containers: 4 });
  });
});
