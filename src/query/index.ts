/**
 * Running SQL in the editor: `Observability: Run Query` (palette, CodeLens above each statement, Ctrl+Enter in SQL
 * documents), New Query from a service node, the document's target service (status bar), the connection's query
 * host, the read-only guard, the enable-key and wake-service offers, and the results panel.
 */
import * as vscode from 'vscode';
import { readSettings } from '../config';
import { createDispatcher, type ApiError } from '../api';
import {
  isReadOnlyStatement,
  QueryClient,
  QueryError,
  queryLimiterFor,
  splitStatements,
  type QueryColumn,
  type QueryResult,
  type RunQueryOptions,
  type Statement,
} from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import { DEMO_CONNECTION_ENV } from '../demo';
import type { ResourceRefresher } from '../resources/model';
import { ResultsPanel, type PanelState, type StatementResult } from './panel';
import { QueryTargets, type QueryTarget } from './targets';
import { registerSqlCompletion } from './completion';
import { errorMessage } from '../errors';

export interface QueryDeps {
  connections: ConnectionManager;
  /** Reloads what the tree shows after a change (the explorer's provider). */
  refresh: ResourceRefresher;
  log: Logger;
}

/** Arguments of `observability.runQuery` (all optional; tests and CodeLens pass some). */
export interface RunQueryArgs {
  uri?: string;
  /** Run the statement that contains this line (0-based). */
  line?: number;
  /** Run this SQL instead of the document's. */
  sql?: string;
  /** true: skip the confirmation of a statement that is not read-only; false: decline it without asking. */
  confirm?: boolean;
  /** Agree to wake an idle service. */
  wake?: boolean;
  /** Take "Enable this key on the query endpoint" when the key is not enabled (still confirmed unless `confirm`). */
  enableKey?: boolean;
}

export interface RunOutcome {
  ok: boolean;
  declined?: 'target' | 'write' | 'wake' | 'enableKey';
  statements?: number;
  columns?: QueryColumn[];
  rows?: number;
  firstRows?: unknown[][];
  truncated?: 'rows' | 'bytes';
  elapsedMs?: number;
  error?: string;
  reason?: string;
  keyEnabled?: boolean;
  rendered?: PanelState['rendered'];
  renderedMs?: number;
  /** From posting the result to the panel until it reported the table painted. */
  panelMs?: number;
}

export interface QueryApi {
  readonly targets: QueryTargets;
  readonly panel: ResultsPanel;
  /** Runs SQL on a service's query endpoint through the connection's query client (same host, key and rate budget). */
  run(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
}

function settings(): { maxRows: number; maxBytes: number; requests: number; windowMs: number; timeoutMs: number } {
  const c = vscode.workspace.getConfiguration('observability.query');
  const num = (k: string, d: number): number => {
    const v = Number(c.get(k, d));
    return Number.isFinite(v) && v > 0 ? v : d;
  };
  return {
    maxRows: Math.floor(num('maxRows', 10_000)),
    maxBytes: Math.floor(num('maxResultMegabytes', 64) * 1024 * 1024),
    requests: Math.floor(num('rateLimit.requestsPerWindow', 10)),
    windowMs: num('rateLimit.windowSeconds', 10) * 1000,
    timeoutMs: num('timeoutSeconds', 300) * 1000,
  };
}

export function registerQuery(context: vscode.ExtensionContext, deps: QueryDeps): QueryApi {
  const { connections, log } = deps;
  const targets = new QueryTargets(context, connections);
  const panel = new ResultsPanel(context.extensionUri);
  /** Query clients by connection and host, each with the dispatcher (connection pool) it alone uses. */
  const clients = new Map<string, QueryClient>();
  const dispatchers = new Map<string, { close(): Promise<void> }>();
  const lensChanged = new vscode.EventEmitter<void>();
  context.subscriptions.push(targets, panel, lensChanged, { dispose: () => dropClients() });

  function dropClients(): void {
    for (const c of clients.values()) void c.dispose().catch(() => undefined);
    // A client does not close a dispatcher it was given: its sockets are closed here.
    for (const d of dispatchers.values()) void d.close().catch(() => undefined);
    clients.clear();
    dispatchers.clear();
  }
  context.subscriptions.push(
    connections.onDidChange(() => {
      dropClients();
      lensChanged.fire();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('observability.query') || e.affectsConfiguration('http')) dropClients();
    }),
    targets.onDidChange(() => lensChanged.fire()),
  );

  function clientFor(connectionId: string): QueryClient {
    const host = targets.queryHost(connectionId);
    const key = `${connectionId} ${host}`;
    let client = clients.get(key);
    if (!client) {
      const connection = connections.get(connectionId);
      if (!connection) throw new Error(vscode.l10n.t('The connection no longer exists.'));
      const s = settings();
      const { proxy } = readSettings();
      const dispatcher = createDispatcher({
        proxy: proxy.proxy,
        strictSSL: proxy.strictSSL,
        noProxy: proxy.noProxy,
        connectTimeoutMs: 15_000,
      });
      dispatchers.set(key, dispatcher);
      client = new QueryClient({
        queryUrl: host,
        keyId: connection.keyId,
        getSecret: async () => {
          const secret = await connections.getSecret(connectionId);
          if (secret === undefined) {
            throw new Error(
              vscode.l10n.t(
                'No key secret is stored for the connection "{0}". Run "Update Key Secret".',
                connection.label,
              ),
            );
          }
          return secret;
        },
        dispatcher,
        limiter: queryLimiterFor(connection.keyId, { requests: s.requests, windowMs: s.windowMs }),
        headersTimeoutMs: s.timeoutMs,
        bodyTimeoutMs: s.timeoutMs,
      });
      clients.set(key, client);
    }
    return client;
  }

  async function documentFor(arg: RunQueryArgs): Promise<vscode.TextDocument | undefined> {
    if (arg.uri) {
      const uri = vscode.Uri.parse(arg.uri);
      return (
        vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ??
        (await vscode.workspace.openTextDocument(uri))
      );
    }
    return vscode.window.activeTextEditor?.document;
  }

  /** The SQL to run: given, the statement of a line, the selection, the statement under the cursor, or the whole document. */
  function statementsFor(doc: vscode.TextDocument, arg: RunQueryArgs): Statement[] {
    if (arg.sql !== undefined) return splitStatements(arg.sql);
    const text = doc.getText();
    const all = splitStatements(text);
    if (arg.line !== undefined) {
      const offset = doc.offsetAt(new vscode.Position(arg.line, 0));
      const lineEnd = doc.offsetAt(doc.lineAt(Math.min(arg.line, doc.lineCount - 1)).range.end);
      const hit = all.find((s) => s.start <= lineEnd && s.end >= offset);
      return hit ? [hit] : [];
    }
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document === doc) {
      if (!editor.selection.isEmpty) return splitStatements(doc.getText(editor.selection));
      if (all.length > 1) {
        const at = doc.offsetAt(editor.selection.active);
        const hit = all.find((s) => s.start <= at && at <= s.end + 1);
        if (hit) return [hit];
      }
    }
    return all;
  }

  async function ensureTarget(doc: vscode.TextDocument): Promise<QueryTarget | undefined> {
    const bound = targets.get(doc.uri);
    if (bound) return bound;
    const picked = await targets.pick();
    if (picked) await targets.bind(doc.uri, picked);
    return picked;
  }

  async function runQuery(raw: unknown): Promise<RunOutcome> {
    const arg = (typeof raw === 'object' && raw !== null && !(raw instanceof vscode.Uri) ? raw : {}) as RunQueryArgs;
    const doc = await documentFor(arg);
    if (!doc && arg.sql === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a SQL document to run a query.'));
      return { ok: false, error: 'no document' };
    }
    const statements = doc ? statementsFor(doc, arg) : splitStatements(arg.sql ?? '');
    if (statements.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('There is no SQL statement to run here.'));
      return { ok: false, error: 'no statement' };
    }
    const target = doc ? await ensureTarget(doc) : await targets.pick();
    if (!target) return { ok: false, declined: 'target' };
    const serviceName = targets.serviceName(target);

    const writes = statements.filter((s) => !isReadOnlyStatement(s.text));
    if (writes.length > 0 && arg.confirm !== true) {
      if (arg.confirm === false) return { ok: false, declined: 'write' };
      const run = vscode.l10n.t('Run');
      const first =
        (writes[0] as Statement).text
          .split('\n')
          .find((l) => l.trim() && !l.trim().startsWith('--'))
          ?.trim() ?? '';
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Run a statement that can change data on {0}?', serviceName),
        {
          modal: true,
          detail: vscode.l10n.t(
            '{0} of the statements is not a SELECT, WITH, SHOW, DESCRIBE or EXPLAIN and may create, change or delete data: {1}',
            writes.length,
            first.length > 120 ? `${first.slice(0, 120)}…` : first,
          ),
        },
        run,
      );
      if (answer !== run) return { ok: false, declined: 'write' };
    }

    let wake = arg.wake === true;
    let enabledKey = false;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const runs = await runAll(target, statements, wake, doc);
        const { result, sql } = runs.at(-1) as StatementResult;
        const shown = await panel.show({
          result,
          serviceName,
          sql,
          maxRows: settings().maxRows,
          maxBytes: settings().maxBytes,
          ...(runs.length > 1 ? { runs } : {}),
        });
        log.info(
          `Ran query on ${serviceName}: ${result.rows.length} row(s)${result.truncated ? ` (stopped at the ${result.truncated} limit)` : ''} in ${Math.round(result.elapsedMs)} ms${result.queryId ? ` (query ID ${result.queryId})` : ''}`,
        );
        return {
          ok: true,
          statements: statements.length,
          columns: result.columns,
          rows: result.rows.length,
          firstRows: result.rows.slice(0, 50),
          ...(result.truncated ? { truncated: result.truncated } : {}),
          elapsedMs: result.elapsedMs,
          keyEnabled: enabledKey,
          ...(shown.rendered ? { rendered: shown.rendered } : {}),
          ...(shown.renderedMs !== undefined ? { renderedMs: shown.renderedMs } : {}),
          ...(shown.panelMs !== undefined ? { panelMs: shown.panelMs } : {}),
        };
      } catch (error) {
        if (error instanceof QueryError && error.kind === 'cancelled') {
          log.info(`Query on ${serviceName} cancelled.`);
          return { ok: false, error: error.message, reason: 'cancelled' };
        }
        const message = errorMessage(error);
        log.error(message);
        if (error instanceof QueryError && error.reason === 'serviceIdle' && !wake) {
          const wakeRun = vscode.l10n.t('Wake and Run');
          const answer =
            arg.wake === false
              ? undefined
              : await vscode.window.showWarningMessage(
                  vscode.l10n.t('{0} is idle. Wake it to run the query?', serviceName),
                  {
                    modal: true,
                    detail: vscode.l10n.t(
                      'Running the query wakes the service; that can take a minute, and the service then runs (and bills) until it idles again.',
                    ),
                  },
                  wakeRun,
                );
          if (answer !== wakeRun) return { ok: false, declined: 'wake', error: message, reason: error.reason };
          wake = true;
          continue;
        }
        if (error instanceof QueryError && error.reason === 'keyNotEnabled' && !enabledKey) {
          const enable = vscode.l10n.t('Enable this key on the query endpoint');
          const choice =
            arg.enableKey === true
              ? enable
              : arg.enableKey === false
                ? undefined
                : await vscode.window.showErrorMessage(message, enable);
          if (choice !== enable) return { ok: false, error: message, reason: error.reason };
          const done = await enableKey({
            connectionId: target.connectionId,
            serviceId: target.serviceId,
            confirm: arg.confirm === true,
          });
          if (!done.enabled) {
            return { ok: false, declined: 'enableKey', error: done.error ?? message, reason: error.reason };
          }
          enabledKey = true;
          continue;
        }
        const showLog = vscode.l10n.t('Show Log');
        void vscode.window.showErrorMessage(message, showLog).then((c) => {
          if (c === showLog) log.show();
        });
        return { ok: false, error: message, ...(error instanceof QueryError ? { reason: error.reason } : {}) };
      }
    }
    return { ok: false, error: 'gave up' };
  }

  async function runAll(
    target: QueryTarget,
    statements: Statement[],
    wake: boolean,
    doc: vscode.TextDocument | undefined,
  ): Promise<StatementResult[]> {
    const s = settings();
    const client = clientFor(target.connectionId);
    const title =
      statements.length > 1
        ? vscode.l10n.t('Running {0} statements on {1}…', statements.length, targets.serviceName(target))
        : vscode.l10n.t('Running query on {0}…', targets.serviceName(target));
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => ac.abort());
        try {
          const runs: StatementResult[] = [];
          for (const [i, st] of statements.entries()) {
            if (statements.length > 1) progress.report({ message: `${i + 1}/${statements.length}` });
            const result = await client.run({
              serviceId: target.serviceId,
              sql: st.text,
              maxRows: s.maxRows,
              maxBytes: s.maxBytes,
              signal: ac.signal,
              wakeService: wake,
              onRows: (n) => progress.report({ message: vscode.l10n.t('{0} rows', n.toLocaleString()) }),
            });
            runs.push({ sql: st.text, result });
          }
          void doc;
          return runs;
        } finally {
          sub.dispose();
        }
      },
    );
  }

  /** Adds this connection's key to the service's query endpoint (keeping every key already there). */
  async function enableKey(raw: unknown): Promise<{ enabled: boolean; error?: string; openApiKeys?: string[] }> {
    const arg = (typeof raw === 'object' && raw !== null ? raw : {}) as {
      connectionId?: string;
      serviceId?: string;
      confirm?: boolean;
    };
    let target: QueryTarget | undefined =
      arg.connectionId && arg.serviceId ? { connectionId: arg.connectionId, serviceId: arg.serviceId } : undefined;
    target ??=
      (vscode.window.activeTextEditor && targets.get(vscode.window.activeTextEditor.document.uri)) ||
      (await targets.pick());
    if (!target) return { enabled: false };
    const connection = connections.get(target.connectionId);
    if (!connection) return { enabled: false, error: 'no connection' };
    const serviceName = targets.serviceName(target);
    const api = connections.clientFor(target.connectionId);
    try {
      const [keys, endpoint] = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Reading the query endpoint of {0}…', serviceName),
        },
        () => Promise.all([api.listApiKeys(), api.getQueryEndpoint(target.serviceId)]),
      );
      const suffix = connection.keyId.slice(-4);
      const matches = keys.data.filter((k) => k.keySuffix === suffix);
      if (matches.length !== 1) {
        throw new Error(
          matches.length === 0
            ? vscode.l10n.t(
                'No API key of the organization ends in "{0}", so the key of this connection cannot be added to the query endpoint.',
                suffix,
              )
            : vscode.l10n.t(
                'Several API keys end in "{0}"; add the key to the query endpoint by editing it (Observability: Upsert Query Endpoint).',
                suffix,
              ),
        );
      }
      const key = matches[0] as { id: string; name: string };
      const current = endpoint.data;
      const existing = current?.openApiKeys ?? [];
      if (existing.includes(key.id)) return { enabled: true, openApiKeys: existing };
      const roles = current && current.roles.length > 0 ? current.roles : ['sql_console_read_only'];
      if (arg.confirm !== true) {
        const enable = vscode.l10n.t('Enable');
        const answer = await vscode.window.showWarningMessage(
          vscode.l10n.t('Enable the key "{0}" on the query endpoint of {1}?', key.name, serviceName),
          {
            modal: true,
            detail: [
              vscode.l10n.t('Queries with this key get the roles: {0}.', roles.join(', ')),
              current
                ? vscode.l10n.t('The {0} key(s) already enabled stay enabled.', existing.length)
                : vscode.l10n.t('The service has no query endpoint yet; one is created with this key only.'),
            ].join(' '),
          },
          enable,
        );
        if (answer !== enable) return { enabled: false };
      }
      const body = {
        roles: roles as ('sql_console_read_only' | 'sql_console_admin')[],
        openApiKeys: [...existing, key.id],
        ...(current?.allowedOrigins ? { allowedOrigins: current.allowedOrigins } : {}),
      };
      const saved = await api.upsertQueryEndpoint(target.serviceId, body);
      deps.refresh.refreshKinds(target.connectionId, target.serviceId, ['queryEndpoint']);
      log.info(
        `Enabled key ${key.id} on the query endpoint of ${serviceName}${saved.requestId ? ` (requestId ${saved.requestId})` : ''}`,
      );
      void vscode.window.setStatusBarMessage(
        vscode.l10n.t('Key enabled on the query endpoint of {0}.', serviceName),
        4000,
      );
      return { enabled: true, openApiKeys: saved.data.openApiKeys };
    } catch (error) {
      const message = errorMessage(error);
      log.error(message);
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Could not enable the key on the query endpoint: {0}', message),
      );
      return { enabled: false, error: message };
    }
  }

  async function newQuery(raw: unknown): Promise<string | undefined> {
    const node = (typeof raw === 'object' && raw !== null ? raw : {}) as {
      connectionId?: unknown;
      serviceId?: unknown;
      name?: unknown;
      sql?: unknown;
    };
    const target =
      typeof node.connectionId === 'string' && typeof node.serviceId === 'string'
        ? { connectionId: node.connectionId, serviceId: node.serviceId }
        : await targets.pick();
    if (!target) return undefined;
    const content =
      typeof node.sql === 'string'
        ? node.sql
        : `-- ${vscode.l10n.t('Runs on {0}. Ctrl+Enter or the CodeLens runs the statement under the cursor.', targets.serviceName(target))}\nSHOW TABLES\n`;
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content });
    await targets.bind(doc.uri, target);
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc.uri.toString();
  }

  async function chooseTarget(raw: unknown): Promise<QueryTarget | undefined> {
    const arg = (typeof raw === 'object' && raw !== null ? raw : {}) as {
      uri?: string;
      connectionId?: string;
      serviceId?: string;
    };
    const uri = arg.uri ? vscode.Uri.parse(arg.uri) : vscode.window.activeTextEditor?.document.uri;
    if (!uri) return undefined;
    const target =
      arg.connectionId && arg.serviceId
        ? { connectionId: arg.connectionId, serviceId: arg.serviceId }
        : await targets.pick(targets.get(uri));
    if (target) await targets.bind(uri, target);
    return target;
  }

  async function setQueryHost(raw: unknown): Promise<string | undefined> {
    const arg = (typeof raw === 'object' && raw !== null ? raw : {}) as { connectionId?: string; queryUrl?: string };
    let connectionId = arg.connectionId;
    if (!connectionId) {
      const list = connections.list();
      const picked =
        list.length === 1
          ? list[0]
          : await vscode.window
              .showQuickPick(
                list.map((c) => ({ label: c.label, description: c.baseUrl, c })),
                { title: vscode.l10n.t('Query host of which connection?') },
              )
              .then((p) => p?.c);
      connectionId = picked?.id;
    }
    if (!connectionId) return undefined;
    let url = arg.queryUrl;
    if (url === undefined) {
      url = await vscode.window.showInputBox({
        title: vscode.l10n.t('Query host'),
        prompt: vscode.l10n.t(
          'Where SQL runs for this connection (https; http only for localhost). Leave empty for the Cloud default.',
        ),
        value: targets.queryHost(connectionId),
        validateInput: (v) => {
          if (!v) return undefined;
          try {
            const u = new URL(v);
            return u.protocol === 'https:' ||
              u.hostname === 'localhost' ||
              u.hostname.startsWith('127.') ||
              u.hostname === '[::1]'
              ? undefined
              : vscode.l10n.t('Use https (http only for localhost).');
          } catch {
            return vscode.l10n.t('Enter an absolute URL such as https://queries.clickhouse.cloud');
          }
        },
      });
      if (url === undefined) return undefined;
    }
    try {
      await targets.setQueryHost(connectionId, url);
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Invalid query host: {0}', errorMessage(error)));
      return undefined;
    }
    dropClients();
    return targets.queryHost(connectionId);
  }

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensChanged.event,
    provideCodeLenses(doc) {
      if (connections.list().length === 0) return [];
      const target = targets.get(doc.uri);
      const title = target
        ? `$(play) ${vscode.l10n.t('Run on {0}', targets.serviceName(target))}`
        : `$(play) ${vscode.l10n.t('Run on…')}`;
      return splitStatements(doc.getText()).map((s) => {
        const pos = doc.positionAt(s.start);
        return new vscode.CodeLens(new vscode.Range(pos, pos), {
          title,
          command: 'observability.runQuery',
          arguments: [{ uri: doc.uri.toString(), line: pos.line }],
        });
      });
    },
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('observability.runQuery', runQuery),
    vscode.commands.registerCommand('observability.newQuery', newQuery),
    vscode.commands.registerCommand('observability.chooseQueryTarget', chooseTarget),
    vscode.commands.registerCommand('observability.setQueryHost', setQueryHost),
    vscode.commands.registerCommand('observability.enableQueryKey', enableKey),
    vscode.commands.registerCommand('observability.copyQueryResult', (format?: unknown) =>
      panel.copy(typeof format === 'string' ? format : 'csv'),
    ),
    vscode.commands.registerCommand('observability.openQueryResultAsJson', () =>
      panel.openJson().then((d) => d?.uri.toString()),
    ),
    vscode.languages.registerCodeLensProvider({ language: 'sql' }, lenses),
    registerSqlCompletion({ connections, targets, clientFor, log }),
  );
  if (context.extensionMode === vscode.ExtensionMode.Development) {
    context.subscriptions.push(applyDemoQueryHost(connections, targets, process.env[DEMO_CONNECTION_ENV]));
  }
  return { targets, panel, run: (connectionId, opts) => clientFor(connectionId).run(opts) };
}

/**
 * `npm run demo`: the demo connection's query host comes from `$OBS_DEMO_CONNECTION.queryUrl` (development mode
 * only): every connection to the demo's `baseUrl` gets that query host, now and whenever the connections change.
 * `raw` is the variable's text; nothing happens when it is missing, not JSON or has no `baseUrl` and `queryUrl`.
 */
export function applyDemoQueryHost(
  connections: ConnectionManager,
  targets: QueryTargets,
  raw: string | undefined,
): vscode.Disposable {
  let demo: { baseUrl?: unknown; queryUrl?: unknown } | undefined;
  try {
    demo = JSON.parse(raw ?? 'null') as typeof demo;
  } catch {
    return new vscode.Disposable(() => undefined);
  }
  if (!demo || typeof demo.queryUrl !== 'string' || typeof demo.baseUrl !== 'string') {
    return new vscode.Disposable(() => undefined);
  }
  const base = demo.baseUrl.replace(/\/+$/, '');
  const queryUrl = demo.queryUrl;
  const apply = (): void => {
    for (const c of connections.list()) {
      if (c.baseUrl.replace(/\/+$/, '') === base && targets.queryHost(c.id) !== queryUrl.replace(/\/+$/, '')) {
        void targets.setQueryHost(c.id, queryUrl).catch(() => undefined);
      }
    }
  };
  apply();
  return connections.onDidChange(apply);
}

export type { ApiError };
