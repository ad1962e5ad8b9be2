/**
 * `observability_runSql`: one read-only statement on a Cloud service's query endpoint, with row and byte caps.
 * Anything the conservative check cannot show to be a single read statement is refused (never sent, never offered
 * for confirmation). The query endpoint's own role (read-only unless the user gave it the admin role) still applies.
 */
import { errorResult } from '../failure';
import { checkReadOnly } from '../readOnlySql';
import { resolveScope, scopeName } from '../scope';
import { tableText, DEFAULT_ROWS, MAX_ROWS } from '../text';
import type { ReadTool } from '../tool';

/** Bytes of result read at most. */
export const SQL_MAX_BYTES = 1024 * 1024;

export const runSql: ReadTool = {
  name: 'observability_runSql',
  kind: 'read',
  running: () => 'Running a read-only SQL query',
  async run(input, { deps }) {
    const scope = resolveScope(deps.connections.list(), input);
    if (scope.selfHosted) {
      return {
        title: `Refused: ${scopeName(scope)} is a self-hosted deployment, whose API runs no SQL. Use observability_searchEvents or observability_previewTile instead.`,
      };
    }
    const sql = typeof input.sql === 'string' ? input.sql : '';
    const verdict = checkReadOnly(sql);
    if (!verdict.ok) {
      return { title: `Refused, nothing was sent: ${verdict.reason}. Only read-only statements run here.` };
    }
    const maxRows = Math.max(1, Math.min(typeof input.maxRows === 'number' ? input.maxRows : DEFAULT_ROWS, MAX_ROWS));
    try {
      const result = await deps.runSql(scope.connectionId, {
        serviceId: scope.serviceId,
        sql: verdict.statement,
        maxRows,
        maxBytes: SQL_MAX_BYTES,
      });
      const cutBy =
        result.truncated === 'rows'
          ? `the query was stopped after ${maxRows} rows (there are more)`
          : result.truncated === 'bytes'
            ? `the query was stopped after ${SQL_MAX_BYTES} bytes of result (there are more rows)`
            : undefined;
      return {
        title: `Query result from ${scopeName(scope)} (${result.rows.length} rows read in ${Math.round(result.elapsedMs)} ms).`,
        data: tableText(
          { columns: result.columns.map((c) => c.name), rows: result.rows, ...(cutBy ? { cutBy } : {}) },
          { maxRows },
        ),
      };
    } catch (error) {
      return errorResult(`Run query on ${scopeName(scope)}`, error);
    }
  },
};
