/**
 * Fault matrix: every operation the user starts (tree folder load, open a resource document, create, update, delete,
 * query endpoint upsert) against every kind of failure the service or the network can produce, in the real extension
 * host and against the emulator's fault injection. For each cell: one clear message naming the operation, the status,
 * the server's text and the request ID; no unhandled rejection; the operation settles within a bound; typed text kept
 * unchanged and dirty; a create never repeated; and the same operation succeeds once the fault is gone, without a
 * reload. The matrix is printed and written to out/fault-matrix.md.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { FaultSpec } from '../emulator/types';
import type { ApplyResult } from '../../src/resourceDocuments/apply';
import type { DeleteResult } from '../../src/tree/commands';
import {
  activate,
  alertTarget,
  closeAll,
  configure,
  docOf,
  labelOf,
  logText,
  replaceText,
  tooltipText,
} from './support';

const TIMEOUT_S = 2;
/**
 * The longest a faulted operation may take before it counts as stuck: the request timeout plus the retries' backoff,
 * with room for a busy host, where opening an editor alone took up to 14 s (a guard against hangs, not a speed target).
 */
const SETTLE_BOUND_MS = 60_000;
const TEN_MB = 10 * 1024 * 1024;

interface TreeNodeLike {
  readonly type: string;
}
interface Api {
  readonly logUri: vscode.Uri;
  readonly tree: {
    readonly provider: {
      getChildren(node?: unknown): Promise<TreeNodeLike[]>;
      getTreeItem(node: unknown): vscode.TreeItem;
      folder(connectionId: string, serviceId: string, kind: string): unknown;
    };
  };
}

/** How a fault is expected to reach the user. */
interface FaultCase {
  readonly name: string;
  /** The fault, without method and path (the operation adds them). */
  readonly spec: Omit<FaultSpec, 'path' | 'method'>;
  /** Status the message must name (none for transport failures). */
  readonly status?: number;
  /** Server text the message must quote. */
  readonly text?: RegExp;
  /** The request ID the message must carry: from the envelope, or the emulator's `x-request-id` header. */
  readonly requestId?: 'envelope' | 'header';
  /** The reply replaces the real one (nothing happens on the service). */
  readonly replaced: boolean;
  /** Requests of this fault may be sent again by the client (nothing was processed). */
  readonly resendable?: boolean;
  /**
   * The service may have applied the change although the user sees a failure: `unsent` for requests the client does
   * not send twice (create, upsert) whose answer never came, `unreadable` for any change whose 2xx answer was unreadable.
   * The message must then say so, since applying again could make a duplicate.
   */
  readonly mayHaveApplied?: 'unsent' | 'unreadable';
  /** Operations for which the fault is not a failure (e.g. DELETE reads no `result`). */
  readonly succeedsFor?: readonly OpName[];
}

const rid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const envelope = (status: number, error: string, n: number) => ({ status, error, requestId: rid(n) });
const HTML_404 =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><pre>Cannot GET /nowhere</pre></body></html>\n';
const HTML_502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';

const FAULTS: readonly FaultCase[] = [
  {
    name: '401',
    spec: { status: 401, body: envelope(401, 'Invalid credentials', 401) },
    status: 401,
    text: /Invalid credentials/,
    requestId: 'envelope',
    replaced: true,
  },
  {
    name: '403',
    spec: { status: 403, body: envelope(403, 'Key lacks the required role', 403) },
    status: 403,
    text: /Key lacks the required role/,
    requestId: 'envelope',
    replaced: true,
  },
  {
    name: '404 JSON',
    spec: { status: 404, body: envelope(404, 'Resource not found', 404) },
    status: 404,
    text: /Resource not found/,
    requestId: 'envelope',
    replaced: true,
  },
  {
    name: '404 HTML',
    spec: { status: 404, body: HTML_404 },
    status: 404,
    text: /Cannot GET \/nowhere/,
    requestId: 'header',
    replaced: true,
  },
  {
    name: '409',
    spec: { status: 409, body: envelope(409, 'Conflict: resource in use', 409) },
    status: 409,
    text: /Conflict: resource in use/,
    requestId: 'envelope',
    replaced: true,
  },
  {
    name: '429 + reset',
    spec: { status: 429, body: envelope(429, 'Rate limit exceeded', 4291), headers: { 'x-ratelimit-reset': '1' } },
    status: 429,
    text: /Rate limit exceeded/,
    requestId: 'envelope',
    replaced: true,
    resendable: true,
  },
  {
    name: '429',
    spec: { status: 429, body: envelope(429, 'Rate limit exceeded', 429) },
    status: 429,
    text: /Rate limit exceeded/,
    requestId: 'envelope',
    replaced: true,
    resendable: true,
  },
  {
    name: '500',
    spec: { status: 500, body: envelope(500, 'Internal server error', 500) },
    status: 500,
    text: /Internal server error/,
    requestId: 'envelope',
    replaced: true,
  },
  {
    name: '502 HTML',
    spec: { status: 502, body: HTML_502 },
    status: 502,
    text: /502 Bad Gateway/,
    requestId: 'header',
    replaced: true,
  },
  {
    name: '503',
    spec: { status: 503, body: envelope(503, 'Service temporarily unavailable', 503) },
    status: 503,
    text: /Service temporarily unavailable/,
    requestId: 'envelope',
    replaced: true,
  },
  {
    name: 'timeout',
    spec: { delayMs: TIMEOUT_S * 1000 + 2500 },
    text: /no response from \S+ within 2 s/,
    replaced: false,
    mayHaveApplied: 'unsent',
  },
  {
    name: 'reset mid-body',
    spec: { reset: 'mid-body' },
    text: /closed unexpectedly/,
    replaced: false,
    mayHaveApplied: 'unsent',
  },
  {
    name: 'truncated JSON',
    spec: { malformedJson: true },
    status: 200,
    requestId: 'header',
    replaced: false,
    mayHaveApplied: 'unreadable',
  },
  {
    name: 'non-JSON 200',
    spec: { status: 200, body: 'OK, all good' },
    status: 200,
    requestId: 'header',
    replaced: true,
    mayHaveApplied: 'unreadable',
  },
  {
    name: 'no result',
    spec: { status: 200, body: { status: 200, requestId: rid(2001) } },
    status: 200,
    requestId: 'envelope',
    replaced: true,
    mayHaveApplied: 'unreadable',
    succeedsFor: ['delete'],
  },
  {
    name: 'wrong types',
    spec: {
      status: 200,
      body: {
        status: 200,
        requestId: rid(2002),
        result: { id: 42, threshold: 'high', interval: 5, roles: 'all', name: ['x'] },
      },
    },
    status: 200,
    requestId: 'envelope',
    replaced: true,
    mayHaveApplied: 'unreadable',
    succeedsFor: ['delete'],
  },
  {
    name: '10 MB body',
    spec: { status: 500, body: { status: 500, requestId: rid(1010), error: `Huge ${'x'.repeat(TEN_MB)}` } },
    status: 500,
    text: /Huge x+/,
    requestId: 'envelope',
    replaced: true,
  },
  {
    name: 'slow drip',
    spec: { dripMs: 300 },
    text: /took more than 2 s to arrive/,
    replaced: false,
    mayHaveApplied: 'unsent',
  },
];

type OpName = 'list' | 'get' | 'create' | 'update' | 'delete' | 'upsert';
const OPS: readonly OpName[] = ['list', 'get', 'create', 'update', 'delete', 'upsert'];
const OPERATION_NAMES: Record<OpName, RegExp> = {
  list: /List dashboards/,
  get: /Get alert/,
  create: /Create alert/,
  update: /Update alert/,
  delete: /Delete alert/,
  upsert: /Save query endpoint/,
};

/** What the user was shown by one run of an operation. */
interface Observed {
  readonly ok: boolean;
  readonly messages: readonly string[];
  readonly ms: number;
}

/** One prepared operation: its faulted route, how to run it, and what to check afterwards. */
interface Prepared {
  readonly method: string;
  readonly path: string;
  run(): Promise<Observed>;
  /** Text typed in the editor, which must survive a failure unchanged and dirty. */
  readonly typed?: { doc: vscode.TextDocument; text: string };
}

/** Races a promise against a bound, so a stuck operation fails the test instead of hanging it. */
async function bounded<T>(what: string, promise: Thenable<T>, ms = SETTLE_BOUND_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve(promise),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function cell(observed: Observed | undefined, failure?: string): string {
  if (failure) return `FAIL: ${failure.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 80)}`;
  if (!observed) return '—';
  return `${observed.ok ? 'ok' : 'message'} ${(observed.ms / 1000).toFixed(1)}s`;
}

describe('Fault matrix', function () {
  this.timeout(600_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  let orgId: string;
  let serviceA: string;
  let serviceB: string;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => {
    unhandled.push(reason);
  };
  const matrix = new Map<string, Map<OpName, string>>();
  const spareAlerts: string[] = [];
  /** Markdown rows of the messages shown (fault, operation, message). */
  const shown: string[] = [];

  const base = () => `/v1/organizations/${orgId}/services`;
  const data = (serviceId: string) => emulator.state.data.get(serviceId)!;
  const apply = (uri: string, extra: Record<string, unknown> = {}) =>
    vscode.commands.executeCommand<ApplyResult>('observability.applyResource', { uri, ...extra });
  const freshAlert = () => {
    const id = spareAlerts.shift();
    assert.ok(id, 'a generated alert is left');
    return id;
  };

  /** Error lines the log received after `mark` characters, waiting a little for the log to be flushed. */
  async function logErrorsSince(mark: number, pattern: RegExp): Promise<string[]> {
    // The log is written asynchronously, later on a busy host: wait for the line, not for a fixed time.
    const until = Date.now() + 10_000;
    for (;;) {
      const lines = (await logText(api))
        .slice(mark)
        .split('\n')
        .filter((l) => /\[error\]/.test(l) && pattern.test(l));
      if (lines.length > 0 || Date.now() > until) return lines.map((l) => l.replace(/^.*?\[error\]\s*/, ''));
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function prepare(op: OpName, fault: string): Promise<Prepared> {
    const started = () => Date.now();
    switch (op) {
      case 'list': {
        const folder = api.tree.provider.folder(connectionId, serviceB, 'dashboards');
        return {
          method: 'GET',
          path: `${base()}/${serviceB}/observability/dashboards`,
          run: async () => {
            const t0 = started();
            await vscode.commands.executeCommand('observability.refreshNode', folder);
            const nodes = await api.tree.provider.getChildren(folder);
            const errors = nodes.filter((n) => n.type === 'error').map((n) => api.tree.provider.getTreeItem(n));
            return {
              ok: errors.length === 0,
              messages: errors.map((i) => `${labelOf(i)}\n${tooltipText(i)}`),
              ms: Date.now() - t0,
            };
          },
        };
      }
      case 'get': {
        const alertId = freshAlert();
        return {
          method: 'GET',
          path: `${base()}/${serviceA}/observability/alerts/${alertId}`,
          run: async () => {
            const mark = (await logText(api)).length;
            const t0 = started();
            const uri = await vscode.commands.executeCommand<string | undefined>('observability.editResource', {
              connectionId,
              serviceId: serviceA,
              alertId,
              name: `Opened ${fault}`,
            });
            const ms = Date.now() - t0;
            return { ok: uri !== undefined, messages: uri ? [] : await logErrorsSince(mark, /Could not open/), ms };
          },
        };
      }
      case 'create': {
        const target = alertTarget(emulator, serviceA);
        const uri = await vscode.commands.executeCommand<string>('observability.createAlert', {
          connectionId,
          serviceId: serviceA,
          dashboardId: target.dashboardId,
          tileId: target.tileId,
          webhookId: target.webhookId,
          threshold: 42,
          name: `Fault ${fault} create`,
          message: 'Value {{value}} crossed {{threshold}}',
        });
        const doc = docOf(uri);
        const text = doc.getText().replace('"threshold": 42', '"threshold": 43');
        await replaceText(doc, text);
        return {
          method: 'POST',
          path: `${base()}/${serviceA}/observability/alerts`,
          typed: { doc, text },
          run: async () => {
            const t0 = started();
            const result = await apply(uri);
            return {
              ok: result.outcome === 'applied',
              messages: result.error ? [result.error] : [],
              ms: Date.now() - t0,
            };
          },
        };
      }
      case 'update': {
        const alertId = freshAlert();
        const uri = await vscode.commands.executeCommand<string>('observability.editResource', {
          connectionId,
          serviceId: serviceA,
          alertId,
          name: `Edited ${fault}`,
        });
        assert.ok(uri, 'the alert opens for editing');
        const doc = docOf(uri);
        const body = JSON.parse(doc.getText()) as Record<string, unknown>;
        body.threshold = 4321;
        const text = `${JSON.stringify(body, null, 2)}\n`;
        await replaceText(doc, text);
        return {
          method: 'PUT',
          path: `${base()}/${serviceA}/observability/alerts/${alertId}`,
          typed: { doc, text },
          run: async () => {
            const t0 = started();
            const result = await apply(uri, { confirm: true });
            // `unchanged`: the service already holds the text (an earlier Apply went through though its answer was lost).
            return {
              ok: result.outcome === 'applied' || result.outcome === 'unchanged',
              messages: result.error ? [result.error] : [],
              ms: Date.now() - t0,
            };
          },
        };
      }
      case 'delete': {
        const alertId = freshAlert();
        return {
          method: 'DELETE',
          path: `${base()}/${serviceA}/observability/alerts/${alertId}`,
          run: async () => {
            const t0 = started();
            const target = data(serviceA).alerts.has(alertId) ? alertId : freshAlert();
            const result = await vscode.commands.executeCommand<DeleteResult>('observability.deleteAlert', {
              connectionId,
              serviceId: serviceA,
              alertId: target,
              skipConfirmation: true,
            });
            return { ok: result.deleted, messages: result.error ? [result.error] : [], ms: Date.now() - t0 };
          },
        };
      }
      case 'upsert': {
        const uri = await vscode.commands.executeCommand<string>('observability.upsertQueryEndpoint', {
          connectionId,
          serviceId: serviceA,
        });
        assert.ok(uri, 'the query endpoint document opens');
        const doc = docOf(uri);
        const keyId = emulator.state.keys[0]!.id;
        const origin = `https://${fault.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com`;
        const text = `${JSON.stringify({ roles: ['sql_console_read_only'], openApiKeys: [keyId], allowedOrigins: origin }, null, 2)}\n`;
        await replaceText(doc, text);
        return {
          method: 'POST',
          path: `${base()}/${serviceA}/serviceQueryEndpoint`,
          typed: { doc, text },
          run: async () => {
            const t0 = started();
            const result = await apply(uri, { confirm: true });
            return {
              ok: result.outcome === 'applied' || result.outcome === 'unchanged',
              messages: result.error ? [result.error] : [],
              ms: Date.now() - t0,
            };
          },
        };
      }
    }
  }

  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    await configure('requestTimeoutSeconds', TIMEOUT_S);
    await configure('autoSave', 'off', 'files');
    emulator = await startEmulator({ rateLimit: false, alertCount: 120 });
    api = await activate<Api>();
    orgId = emulator.organizationId;
    [serviceA, serviceB] = emulator.serviceIds as [string, string];
    const sample = new Set(['', ...[...data(serviceA).alerts.values()].slice(0, 8).map((a) => a.id as string)]);
    spareAlerts.push(...[...data(serviceA).alerts.keys()].filter((id) => !sample.has(id)));
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: orgId,
      serviceIds: [serviceA, serviceB],
      label: 'Faults (emulator)',
      skipCheck: true,
    });
    assert.equal(typeof connectionId, 'string');
  });

  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    const header = `| Fault | ${OPS.join(' | ')} |`;
    const rows = [...matrix].map(
      ([fault, cells]) => `| ${fault} | ${OPS.map((op) => cells.get(op) ?? '—').join(' | ')} |`,
    );
    const table = [
      '# Fault matrix',
      '',
      `Outcome per fault and operation: \`message\` = one clear message shown (operation, status, server text, request ID),`,
      `\`ok\` = the operation completed; then the time the operation took. Request timeout ${TIMEOUT_S} s.`,
      '',
      header,
      `|${' --- |'.repeat(OPS.length + 1)}`,
      ...rows,
      '',
    ].join('\n');
    console.log(table);
    const lateDiffs = (await logText(api)).split('\n').filter((l) => /diff editor did not open/.test(l));
    if (lateDiffs.length > 0) console.log(`Diff editors that did not open in time: ${lateDiffs.length}`);
    try {
      const out = path.resolve(__dirname, '..', '..', 'fault-matrix.md');
      fs.writeFileSync(
        out,
        [table, '## Messages shown', '', '| Fault | Operation | Message |', '| --- | --- | --- |', ...shown, ''].join(
          '\n',
        ),
      );
    } catch (err) {
      console.error(`Could not write the fault matrix: ${String(err)}`);
    }
    await closeAll();
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await configure('requestTimeoutSeconds', undefined);
    await configure('autoSave', undefined, 'files');
    await emulator?.close();
  });

  it('a DELETE whose answer was lost is reported as done when the retry finds the alert gone', async () => {
    const alertId = freshAlert();
    const route = `${base()}/${serviceA}/observability/alerts/${alertId}`;
    emulator.faults.add({ method: 'DELETE', path: route, times: 1, reset: 'mid-body' });
    const mark = emulator.requests.length;
    const result = await bounded(
      'delete',
      vscode.commands.executeCommand<DeleteResult>('observability.deleteAlert', {
        connectionId,
        serviceId: serviceA,
        alertId,
        skipConfirmation: true,
      }),
    );
    assert.deepEqual(result, { deleted: true, alsoDeleted: undefined });
    assert.equal(data(serviceA).alerts.has(alertId), false);
    assert.deepEqual(
      emulator.requests
        .slice(mark)
        .filter((r) => r.path === route)
        .map((r) => r.status),
      [200, 404],
    );
  });

  for (const fault of FAULTS) {
    it(`${fault.name}: one clear message per operation, text kept, no duplicate, recovers`, async () => {
      const cells = new Map<OpName, string>();
      matrix.set(fault.name, cells);
      const prepared = new Map<OpName, Prepared>();
      for (const op of OPS) prepared.set(op, await prepare(op, fault.name));
      const alertsBefore = data(serviceA).alerts.size;
      const mark = emulator.requests.length;
      for (const p of prepared.values()) emulator.faults.add({ ...fault.spec, method: p.method, path: p.path });

      const settled = await Promise.allSettled(
        OPS.map((op) => bounded(`${op} under ${fault.name}`, prepared.get(op)!.run())),
      );
      emulator.faults.clear();
      const problems: string[] = [];
      OPS.forEach((op, i) => {
        const s = settled[i]!;
        const p = prepared.get(op)!;
        const fail = (why: string) => {
          problems.push(`${op}: ${why}`);
          cells.set(op, cell(undefined, why));
        };
        if (s.status === 'rejected') return fail(s.reason instanceof Error ? s.reason.message : String(s.reason));
        const o = s.value;
        cells.set(op, cell(o));
        if (o.messages[0]) {
          shown.push(
            `| ${fault.name} | ${op} | ${o.messages[0].replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 400)} |`,
          );
        }
        const expectOk = fault.succeedsFor?.includes(op) ?? false;
        if (o.ok) {
          if (!expectOk) fail('completed although the service failed');
          return;
        }
        if (expectOk) return fail(`failed: ${o.messages.join(' / ')}`);
        if (o.messages.length !== 1) return fail(`${o.messages.length} messages: ${o.messages.join(' / ')}`);
        const m = o.messages[0]!;
        if (!OPERATION_NAMES[op].test(m)) return fail(`operation not named: ${m}`);
        if (fault.status !== undefined && !new RegExp(`HTTP ${fault.status}\\b`).test(m)) {
          return fail(`status ${fault.status} not named: ${m}`);
        }
        if (fault.text && !fault.text.test(m)) return fail(`server text not quoted: ${m.slice(0, 300)}`);
        if (m.length > 4000) return fail(`message of ${m.length} characters`);
        const warned =
          fault.mayHaveApplied === 'unsent'
            ? ['create', 'upsert'].includes(op)
            : fault.mayHaveApplied === 'unreadable' && !['list', 'get'].includes(op);
        if (warned && !/refresh and check/.test(m)) {
          return fail(`no warning that the change may have been applied: ${m}`);
        }
        if (/Unable to read file|FileSystemError/.test(m)) {
          return fail(`the request's error is buried in a file system message: ${m}`);
        }
        if (fault.requestId) {
          const requests = emulator.requests.slice(mark).filter((r) => r.method === p.method && r.path === p.path);
          const expected =
            fault.requestId === 'envelope'
              ? (fault.spec.body as { requestId: string }).requestId
              : requests[requests.length - 1]?.requestId;
          if (!expected || !m.includes(expected)) return fail(`request ID ${String(expected)} not named: ${m}`);
        }
        if (p.typed) {
          if (p.typed.doc.getText() !== p.typed.text) return fail('the typed text changed');
          if (!p.typed.doc.isDirty) return fail('the typed text is no longer dirty');
        }
      });
      const create = prepared.get('create')!;
      const posts = emulator.requests.slice(mark).filter((r) => r.method === 'POST' && r.path === create.path).length;
      if (!fault.resendable && posts > 1) problems.push(`create: sent ${posts} times`);
      const created = [...data(serviceA).alerts.values()].filter((a) => a.name === `Fault ${fault.name} create`).length;
      if (created > (fault.replaced ? 0 : 1)) problems.push(`create: ${created} alerts on the service`);
      void alertsBefore;

      // The fault is gone: the same operations succeed, without a reload.
      // A longer bound: the rate limiter may still hold back requests after the last 429 of the faulted run.
      const again = await Promise.allSettled(
        OPS.map((op) => bounded(`${op} after ${fault.name}`, prepared.get(op)!.run(), 2 * SETTLE_BOUND_MS)),
      );
      for (const [i, op] of OPS.entries()) {
        const s = again[i]!;
        const ok = s.status === 'fulfilled' && s.value.ok;
        if (!ok) {
          // A stuck operation: the end of the log tells what it was waiting for.
          const why =
            s.status === 'rejected'
              ? `${String(s.reason)}\n${(await logText(api)).split('\n').slice(-30).join('\n')}`
              : s.value.messages.join(' / ');
          problems.push(`${op} did not recover: ${why}`);
          cells.set(op, `${cells.get(op) ?? ''}; no recovery`);
        }
      }
      if (unhandled.length > 0) problems.push(`unhandled rejections: ${unhandled.map(String).join(' / ')}`);
      unhandled.length = 0;
      await closeAll();
      assert.deepEqual(problems, []);
    });
  }
});
