/** The results webview's messages, read in one place (src/query/panelMessages.ts), and the export texts. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handleWebviewMessage, type WebviewMessageHandlers } from '../../../src/query/panelMessages';
import { resultText } from '../../../src/query/resultExport';

function recorder(): { calls: unknown[][]; on: WebviewMessageHandlers } {
  const calls: unknown[][] = [];
  const rec =
    (name: string) =>
    (...args: unknown[]): undefined => {
      calls.push([name, ...args]);
      return undefined;
    };
  const on = {
    ready: rec('ready'),
    ack: rec('ack'),
    painted: rec('painted'),
    rendered: rec('rendered'),
    loaded: rec('loaded'),
    copy: async (f: string) => rec('copy')(f),
    openJson: async () => rec('openJson')(),
    statement: async (i: number) => rec('statement')(i),
    openTrace: async (cell: { traceId?: unknown; time?: unknown }) => rec('openTrace')(cell),
    openFrame: async (id: number) => rec('openFrame')(id),
  };
  return { calls, on };
}

describe('handleWebviewMessage', () => {
  it('hands each message of the results webview to its handler, with its fields read as numbers', async () => {
    const { calls, on } = recorder();
    await handleWebviewMessage({ type: 'ready' }, on);
    await handleWebviewMessage({ type: 'ack', seq: 3 }, on);
    await handleWebviewMessage({ type: 'painted', seq: 3, rows: 500 }, on);
    await handleWebviewMessage(
      { type: 'rendered', seq: 3, ms: 7.5, rows: 10_000, columns: 4, chart: true, visibleRows: 54 },
      on,
    );
    await handleWebviewMessage({ type: 'loaded', rows: 10_000 }, on);
    await handleWebviewMessage({ type: 'copy', format: 'csv' }, on);
    await handleWebviewMessage({ type: 'openJson' }, on);
    await handleWebviewMessage({ type: 'statement', index: 1 }, on);
    await handleWebviewMessage({ type: 'openTrace', traceId: 'abc', time: '2026-11-29 01:00:00', extra: 1 }, on);
    await handleWebviewMessage({ type: 'openFrame', id: 7 }, on);
    assert.deepEqual(calls, [
      ['ready'],
      ['ack', 3],
      ['painted', 500],
      ['rendered', 3, 7.5, { rows: 10_000, columns: 4, chart: true, visibleRows: 54, statements: 1, statement: 0 }],
      ['loaded', 10_000],
      ['copy', 'csv'],
      ['openJson'],
      ['statement', 1],
      ['openTrace', { traceId: 'abc', time: '2026-11-29 01:00:00' }],
      ['openFrame', 7],
    ]);
  });

  it('ignores what is not one of its messages', async () => {
    const { calls, on } = recorder();
    for (const m of [
      null,
      'ready',
      42,
      {},
      { type: 'nope' },
      { type: 'copy', format: 1 },
      { type: 'statement', index: 1.5 },
      { type: 'openFrame', id: '7' },
      { type: 'openFrame' },
    ]) {
      await handleWebviewMessage(m, on);
    }
    assert.deepEqual(calls, []);
  });
});

describe('handleWebviewMessage, the webview clock', () => {
  it('hands the stamps of a report to `timing` before its handler, only when they are numbers', async () => {
    const { calls, on } = recorder();
    const timed = { ...on, timing: (...args: unknown[]) => void calls.push(['timing', ...args]) };
    await handleWebviewMessage({ type: 'painted', seq: 2, rows: 500, received: 1000.5, at: 1020.25 }, timed);
    await handleWebviewMessage(
      { type: 'rendered', seq: 2, ms: 3, rows: 9, columns: 1, visibleRows: 9, received: 1030, at: 'soon' },
      timed,
    );
    await handleWebviewMessage({ type: 'loaded', seq: 2, rows: 9, at: 1100 }, timed);
    await handleWebviewMessage({ type: 'loaded', seq: 2, rows: 9, at: Number.NaN }, timed);
    await handleWebviewMessage({ type: 'ack', seq: 2, at: 1200 }, timed);
    await handleWebviewMessage({ type: 'painted', seq: 3, rows: 1, at: 1300 }, on);
    assert.deepEqual(calls, [
      ['timing', 'painted', 2, { received: 1000.5, at: 1020.25 }],
      ['painted', 500],
      ['timing', 'rendered', 2, { received: 1030 }],
      ['rendered', 2, 3, { rows: 9, columns: 1, chart: false, visibleRows: 9, statements: 1, statement: 0 }],
      ['timing', 'loaded', 2, { at: 1100 }],
      ['loaded', 9],
      ['loaded', 9],
      ['ack', 2],
      ['painted', 1],
    ]);
  });
});

describe('resultText', () => {
  const columns = [
    { name: 'a', type: 'String' },
    { name: 'b', type: 'UInt8' },
  ];
  const rows = [
    ['x,y', 1],
    [null, 2],
  ];
  it('writes the whole result as CSV, Markdown or JSON objects', () => {
    assert.equal(resultText('csv', columns, rows), 'a,b\r\n"x,y",1\r\n,2\r\n');
    assert.match(resultText('markdown', columns, rows), /^\| a \| b \|\n/);
    assert.deepEqual(JSON.parse(resultText('json', columns, rows)), [
      { a: 'x,y', b: 1 },
      { a: null, b: 2 },
    ]);
  });
});
