/**
 * `observability_describeTables`: a service's sources (kind, table, timestamp and other key expressions) and, on a
 * Cloud service, the columns and types of their tables (one `system.columns` query through the query endpoint).
 */
import { errorMessage } from '../../errors';
import { errorResult } from '../failure';
import { resolveScope, scopeName } from '../scope';
import { cellText, tableText } from '../text';
import type { ReadTool } from '../tool';

function sqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export const describeTables: ReadTool = {
  name: 'observability_describeTables',
  kind: 'read',
  running: () => "Reading the service's sources and tables",
  async run(input, { deps }) {
    const scope = resolveScope(deps.connections.list(), input);
    let sources;
    try {
      sources = (await deps.connections.clientFor(scope.connectionId).listSources(scope.serviceId)).data;
    } catch (error) {
      return errorResult(`List sources of ${scopeName(scope)}`, error);
    }
    const only = typeof input.source === 'string' ? input.source.trim().toLowerCase() : '';
    const chosen = sources.filter(
      (s) => !only || s.id === input.source || (s.name ?? '').trim().toLowerCase() === only,
    );
    const sourceRows = chosen.map((s) => {
      const r = s as Record<string, unknown>;
      const from = (r.from ?? {}) as { databaseName?: string | null; tableName?: string | null };
      return [
        s.name ?? '',
        s.id,
        s.kind ?? '',
        [from.databaseName, from.tableName].filter(Boolean).join('.'),
        r.timestampValueExpression ?? '',
        r.bodyExpression ?? r.implicitColumnExpression ?? '',
        r.serviceNameExpression ?? '',
        r.severityTextExpression ?? '',
      ];
    });
    const parts = [
      tableText({
        columns: ['source', 'source ID', 'kind', 'table', 'timestamp', 'body', 'service name', 'severity'],
        rows: sourceRows,
      }),
    ];
    const notes: string[] = [];
    if (scope.selfHosted) {
      notes.push('A self-hosted deployment runs no SQL from its API: the columns are not listed.');
    } else {
      const tables = chosen.flatMap((s) => {
        const from = ((s as Record<string, unknown>).from ?? {}) as {
          databaseName?: string | null;
          tableName?: string | null;
        };
        return from.tableName ? [{ database: from.databaseName ?? undefined, table: from.tableName }] : [];
      });
      if (tables.length > 0) {
        const where = tables
          .map(
            (t) =>
              `(database = ${t.database ? sqlString(t.database) : 'currentDatabase()'} AND table = ${sqlString(t.table)})`,
          )
          .join(' OR ');
        try {
          const r = await deps.runSql(scope.connectionId, {
            serviceId: scope.serviceId,
            sql: `SELECT database, table, name, type FROM system.columns WHERE ${where} ORDER BY database, table, position`,
            maxRows: 2000,
            maxBytes: 1024 * 1024,
          });
          parts.push(
            'columns:',
            tableText({ columns: ['database', 'table', 'column', 'type'], rows: r.rows }, { maxRows: 200 }),
          );
        } catch (error) {
          notes.push(`The columns could not be read (${cellText(errorMessage(error), 300)}).`);
        }
      }
    }
    return {
      title: `Sources of ${scopeName(scope)}: ${sources.length}${only ? `, ${chosen.length} matching` : ''}.`,
      notes,
      data: parts.join('\n'),
    };
  },
};
