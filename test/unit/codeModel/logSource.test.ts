/** Which log source counts a pick's logger calls and logged exceptions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logSourceOf } from '../../../src/codeModel/logSource';

const logs = { id: 'l1', kind: 'log' };
const other = { id: 'l2', kind: 'log' };
const metrics = { id: 'm1', kind: 'metric' };

describe('The log source of a trace source', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>[], string | undefined][] = [
    ['the one its logSourceId names', { id: 't', kind: 'trace', logSourceId: 'l2' }, [logs, other], 'l2'],
    ['else the only log source', { id: 't', kind: 'trace' }, [logs, metrics], 'l1'],
    [
      'a logSourceId naming no log source falls back',
      { id: 't', kind: 'trace', logSourceId: 'm1' },
      [logs, metrics],
      'l1',
    ],
    ['none among several without a link', { id: 't', kind: 'trace' }, [logs, other], undefined],
    ['none when the service has none', { id: 't', kind: 'trace', logSourceId: 'gone' }, [metrics], undefined],
  ];
  for (const [name, traces, sources, want] of cases) {
    it(name, () => assert.equal(logSourceOf(traces, [traces, ...sources])?.id, want));
  }
});
