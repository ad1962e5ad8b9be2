/** The results webview's link messages: a span cell (with or without the row's trace ID) and a saved-search cell. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handleWebviewMessage, type WebviewMessageHandlers } from '../../../src/query/panelMessages';

describe('handleWebviewMessage: links', () => {
  it('hands a span cell and a saved-search cell to their handlers', async () => {
    const calls: unknown[][] = [];
    const none = async (): Promise<undefined> => undefined;
    const on: WebviewMessageHandlers = {
      ready: none,
      ack: none,
      painted: none,
      rendered: none,
      loaded: none,
      copy: none,
      openJson: none,
      statement: none,
      openTrace: async (cell) => void calls.push(['openTrace', cell]),
      openSavedSearch: async (id) => void calls.push(['openSavedSearch', id]),
      openFrame: none,
    };
    await handleWebviewMessage({ type: 'openTrace', spanId: '00f067aa0ba902b7', time: 't' }, on);
    await handleWebviewMessage({ type: 'openTrace', traceId: 'abc', spanId: '00f067aa0ba902b7' }, on);
    await handleWebviewMessage({ type: 'openSavedSearch', savedSearchId: '65f0', extra: 1 }, on);
    assert.deepEqual(calls, [
      ['openTrace', { traceId: undefined, time: 't', spanId: '00f067aa0ba902b7' }],
      ['openTrace', { traceId: 'abc', time: undefined, spanId: '00f067aa0ba902b7' }],
      ['openSavedSearch', '65f0'],
    ]);
  });
});
