import * as vscode from 'vscode';
import type { QueryResult, RunQueryOptions } from '../../api/query';
import { argsOf, noPrompt } from '../../commandArgs';
import { hostOf } from '../../connections/pick';
import { isSelfHosted, type StoredConnection } from '../../connections/types';
import { errorMessage } from '../../errors';
import { command, resolveConnection, type ConnectionCommandDeps } from './common';

export const TEST_CONNECTION_COMMAND = 'observability.testConnection';

export interface TestConnectionDeps extends ConnectionCommandDeps {
  /** SQL through the connection's query client: Cloud's query endpoint, or a self-hosted connection's ClickHouse access. */
  readonly runSql: (connectionId: string, opts: RunQueryOptions) => Promise<QueryResult>;
}

/** One part of a connection and how it fared: `skipped` when it was not tried (not set up, or would wake a service). */
export interface TestedPart {
  readonly part: 'api' | 'clickHouse' | 'queryEndpoint';
  readonly name: string;
  readonly outcome: 'ok' | 'failed' | 'skipped';
  readonly detail: string;
}

export interface TestReport {
  readonly connectionId: string;
  readonly ok: boolean;
  readonly parts: readonly TestedPart[];
}

/** States in which a query would wake, start or wait for a Cloud service: no query is sent then. */
const NOT_RUNNING = new Set(['idle', 'stopped', 'stopping', 'starting', 'awaking', 'provisioning', 'terminated']);

/** Runs `probe` and turns what it says or throws into a part (errors sanitised, without any secret of this window). */
async function tryPart(
  deps: TestConnectionDeps,
  part: TestedPart['part'],
  name: string,
  probe: () => Promise<Pick<TestedPart, 'outcome' | 'detail'>>,
): Promise<TestedPart> {
  try {
    return { part, name, ...(await probe()) };
  } catch (error) {
    let detail = errorMessage(error).replace(/\s+/g, ' ');
    for (const secret of deps.connections.secretsInUse()) {
      if (secret.length >= 4) detail = detail.split(secret).join('***');
    }
    return { part, name, outcome: 'failed', detail };
  }
}

/** Tests each part of a connection with one cheap request, never waking an idle Cloud service. */
export async function testConnection(deps: TestConnectionDeps, connection: StoredConnection): Promise<TestReport> {
  const id = connection.id;
  const client = deps.connections.clientFor(id);
  const parts: TestedPart[] = [];
  const states = new Map<string, string | undefined>();
  const first = connection.serviceIds[0];
  parts.push(
    await tryPart(deps, 'api', vscode.l10n.t('API'), async () => {
      if (!isSelfHosted(connection)) {
        const services = await client.listServices(connection.organizationId);
        for (const s of services.data) {
          states.set(s.id.toLowerCase(), s.state === undefined ? undefined : String(s.state));
        }
      }
      const sources = first !== undefined ? (await client.listSources(first)).data.length : undefined;
      return {
        outcome: 'ok',
        detail:
          sources === undefined
            ? vscode.l10n.t('listed the services of the organization')
            : vscode.l10n.t('listed {0} source(s) at {1}', sources, hostOf(connection.baseUrl)),
      };
    }),
  );
  const selectOne = async (serviceId?: string) => {
    const result = await deps.runSql(id, { sql: 'SELECT 1', maxRows: 1, ...(serviceId ? { serviceId } : {}) });
    return vscode.l10n.t('SELECT 1 answered in {0} ms', Math.round(result.elapsedMs));
  };
  if (isSelfHosted(connection)) {
    const access = connection.clickHouse;
    parts.push(
      await tryPart(deps, 'clickHouse', vscode.l10n.t('ClickHouse access'), async () =>
        access
          ? { outcome: 'ok', detail: `${await selectOne()} (${access.user} @ ${hostOf(access.url)})` }
          : { outcome: 'skipped', detail: vscode.l10n.t('not set ("Set ClickHouse Access for Previews…")') },
      ),
    );
  } else {
    for (const serviceId of connection.serviceIds) {
      const name = connection.services.find((s) => s.id === serviceId)?.name ?? serviceId;
      parts.push(
        await tryPart(deps, 'queryEndpoint', vscode.l10n.t('Query endpoint of {0}', name), async () => {
          const endpoint = (await client.getQueryEndpoint(serviceId)).data;
          if (!endpoint) return { outcome: 'skipped', detail: vscode.l10n.t('not set up for this service') };
          const state = states.get(serviceId);
          if (state !== undefined && NOT_RUNNING.has(state)) {
            return {
              outcome: 'skipped',
              detail: vscode.l10n.t('not tested: the service is {0} and a query would wake or wait for it', state),
            };
          }
          return { outcome: 'ok', detail: await selectOne(serviceId) };
        }),
      );
    }
  }
  return { connectionId: id, ok: parts.every((p) => p.outcome !== 'failed'), parts };
}

/** The report as text: a headline, and a line per part. */
export function reportText(connection: StoredConnection, report: TestReport): { headline: string; lines: string } {
  const mark = { ok: '✓', failed: '✗', skipped: '–' } as const;
  const lines = report.parts.map((p) => `${mark[p.outcome]} ${p.name}: ${p.detail}`).join('\n');
  const headline = report.ok
    ? vscode.l10n.t('"{0}" works.', connection.label)
    : vscode.l10n.t('Some parts of "{0}" do not work.', connection.label);
  return { headline, lines };
}

/** `observability.testConnection`: a picked or given connection; `{ connectionId, noPrompt: true }` shows nothing. */
export function registerTestConnection(deps: TestConnectionDeps): vscode.Disposable {
  const automated = (arg: unknown) => noPrompt(argsOf(arg), 'skipConfirmation');
  return vscode.commands.registerCommand(
    TEST_CONNECTION_COMMAND,
    command(deps, automated, async (arg) => {
      const connection = await resolveConnection(deps, arg, vscode.l10n.t('Connection to test'));
      if (!connection) return undefined;
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Testing "{0}"…', connection.label) },
        () => testConnection(deps, connection),
      );
      const { headline, lines } = reportText(connection, report);
      deps.log.info(`Test Connection "${connection.label}" (${connection.id}): ${lines.replace(/\n/g, '; ')}`);
      if (!automated(arg)) {
        // Plain text in a modal: server text is never rendered as links or markup.
        const show = report.ok ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
        void show(headline, { modal: true, detail: lines });
      }
      return report;
    }),
  );
}
