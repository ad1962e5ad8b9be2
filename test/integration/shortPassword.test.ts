/**
 * A short ClickHouse password (two characters, which ClickHouse accepts) that a hostile ClickHouse HTTP interface on
 * loopback echoes in its error text, its query ID and its exception header: Run Query on the self-hosted deployment's
 * ClickHouse access shows it nowhere — not in the message, the server message or the query ID — and the log never
 * holds it.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { SELF_HOSTED_SERVICE_ID } from '../../src/api/oss';
import type { RunOutcome } from '../../src/query';
import { startEmulator, type Emulator } from '../emulator/server';
import { activate, configure, readLog, type ExtensionApi } from './support';

const PASSWORD = 'ab';
/** How the server echoes the password; none of these may be shown or logged. */
const ECHOES = [`(${PASSWORD})`, `=${PASSWORD};`, `'${PASSWORD}'`, `ID ${PASSWORD}`, `id ${PASSWORD}`];

describe('Short ClickHouse passwords are never shown', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let oss: Emulator;
  let server: Server;
  let connectionId = '';
  let asked = 0;

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    api = await activate();
    oss = await startEmulator({ flavor: 'oss', rateLimit: false });
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        asked++;
        if (asked === 1) {
          // The access check's `SELECT 1` passes.
          res.writeHead(200, { 'content-type': 'application/x-ndjson', 'x-clickhouse-query-id': 'q-check-0001' });
          res.end('["1"]\n["UInt8"]\n[1]\n');
          return;
        }
        res.writeHead(403, {
          'content-type': 'text/plain; charset=UTF-8',
          'x-clickhouse-exception-code': '516',
          'x-clickhouse-query-id': PASSWORD,
        });
        res.end(
          `Code: 516. DB::Exception: reader: Authentication failed: password is incorrect (${PASSWORD}), or password=${PASSWORD}; '${PASSWORD}'. (AUTHENTICATION_FAILED)\n`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: oss.url,
      apiKey: oss.ossApiKey,
    });
    await vscode.commands.executeCommand('observability.setClickHouseAccess', {
      connectionId,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      user: 'reader',
      password: PASSWORD,
    });
    assert.equal(await api.connections.getClickHousePassword(connectionId), PASSWORD, 'the short password is kept');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    server?.close();
    await oss?.close();
  });

  it('Run Query: the echoed password is in no message, server message, query ID or log line', async () => {
    const logMark = (await readLog(api)).length;
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: 'SELECT 1' });
    await vscode.commands.executeCommand('observability.chooseQueryTarget', {
      uri: doc.uri.toString(),
      connectionId,
      serviceId: SELF_HOSTED_SERVICE_ID,
    });
    const out = await vscode.commands.executeCommand<RunOutcome>('observability.runQuery', { uri: doc.uri.toString() });
    assert.equal(out.ok, false);
    assert.equal(out.reason, 'accessDenied');
    assert.match(String(out.error), /password is incorrect \(\*\*\*\)/, out.error);
    assert.ok(asked >= 2, 'the query reached the hostile server');
    // The log is written asynchronously: wait for the failure's line.
    let log = '';
    for (let i = 0; i < 50 && !/AUTHENTICATION_FAILED/.test(log); i++) {
      log = (await readLog(api)).slice(logMark);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(log, /AUTHENTICATION_FAILED/, 'the failure was logged');
    for (const echo of ECHOES) {
      assert.ok(!String(out.error).includes(echo), `the message shows ${echo}: ${out.error}`);
      assert.ok(!log.includes(echo), `the log shows ${echo}`);
    }
  });
});
