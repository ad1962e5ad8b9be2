/**
 * Completion in SQL documents bound to a service: the tables of the service's sources (from the sources list) and,
 * for tables the statement names, their columns with ClickHouse types (`DESCRIBE TABLE` through the query
 * endpoint on first need, then cached).
 */
import * as vscode from 'vscode';
import type { QueryResult, RunQueryOptions } from '../api/query';
import { splitStatements } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { QueryTargets } from './targets';
import { errorMessage } from '../errors';

interface TableRef {
  database: string;
  table: string;
  source: string;
}

const TTL_MS = 5 * 60_000;

export function registerSqlCompletion(deps: {
  connections: ConnectionManager;
  targets: QueryTargets;
  /** Runs SQL in the background (never to a service held back, never waking one). */
  run: (connectionId: string, opts: RunQueryOptions) => Promise<QueryResult>;
  log: Logger;
}): vscode.Disposable {
  const tables = new Map<string, { at: number; value: Promise<TableRef[]> }>();
  const columns = new Map<string, Promise<{ name: string; type: string }[]>>();

  function tablesOf(connectionId: string, serviceId: string): Promise<TableRef[]> {
    const key = `${connectionId}/${serviceId}`;
    const hit = tables.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const value = deps.connections
      .clientFor(connectionId)
      .listSources(serviceId)
      .then((r) => {
        const out: TableRef[] = [];
        for (const s of r.data as {
          name?: unknown;
          from?: { databaseName?: unknown; tableName?: unknown };
          metricTables?: Record<string, unknown>;
        }[]) {
          const database = typeof s.from?.databaseName === 'string' ? s.from.databaseName : '';
          const name = typeof s.name === 'string' ? s.name : '';
          if (typeof s.from?.tableName === 'string' && s.from.tableName) {
            out.push({ database, table: s.from.tableName, source: name });
          }
          for (const t of Object.values(s.metricTables ?? {})) {
            if (typeof t === 'string' && t) out.push({ database, table: t, source: name });
          }
        }
        return out;
      });
    value.catch((e: unknown) => {
      tables.delete(key);
      deps.log.warn(`Completion: could not list the sources: ${errorMessage(e)}`);
    });
    tables.set(key, { at: Date.now(), value });
    return value;
  }

  function columnsOf(connectionId: string, serviceId: string, t: TableRef): Promise<{ name: string; type: string }[]> {
    const key = `${connectionId}/${serviceId}/${t.database}.${t.table}`;
    let hit = columns.get(key);
    if (!hit) {
      const ident = (s: string): string => `\`${s.replace(/`/g, '``')}\``;
      hit = deps
        .run(connectionId, {
          serviceId,
          sql: `DESCRIBE TABLE ${t.database ? `${ident(t.database)}.` : ''}${ident(t.table)}`,
          maxRows: 2000,
        })
        .then((r) => r.rows.map((row) => ({ name: String(row[0]), type: String(row[1]) })));
      hit.catch((e: unknown) => {
        columns.delete(key);
        deps.log.warn(`Completion: DESCRIBE ${t.table} failed: ${errorMessage(e)}`);
      });
      columns.set(key, hit);
    }
    return hit;
  }

  return vscode.languages.registerCompletionItemProvider(
    { language: 'sql' },
    {
      async provideCompletionItems(doc, position) {
        const target = deps.targets.get(doc.uri);
        if (!target) return undefined;
        let known: TableRef[];
        try {
          known = await tablesOf(target.connectionId, target.serviceId);
        } catch {
          return undefined;
        }
        const items: vscode.CompletionItem[] = [];
        for (const t of known) {
          const item = new vscode.CompletionItem(
            { label: t.table, description: t.database },
            vscode.CompletionItemKind.Struct,
          );
          item.detail = vscode.l10n.t('Table of source "{0}"', t.source);
          item.sortText = `1${t.table}`;
          items.push(item);
        }
        const offset = doc.offsetAt(position);
        const statement =
          splitStatements(doc.getText()).find((s) => s.start <= offset && offset <= s.end + 1)?.text ??
          doc.lineAt(position.line).text;
        const named = new Set(
          [...statement.matchAll(/\b(?:FROM|JOIN)\s+(?:`?(\w+)`?\.)?`?(\w+)`?/gi)].map((m) =>
            (m[2] as string).toLowerCase(),
          ),
        );
        const mentioned = known.filter((t) => named.has(t.table.toLowerCase()));
        const seen = new Set<string>();
        for (const t of mentioned) {
          let cols: { name: string; type: string }[];
          try {
            cols = await columnsOf(target.connectionId, target.serviceId, t);
          } catch {
            continue;
          }
          for (const c of cols) {
            if (seen.has(c.name)) continue;
            seen.add(c.name);
            const item = new vscode.CompletionItem(
              { label: c.name, description: c.type },
              vscode.CompletionItemKind.Field,
            );
            item.detail = `${t.table}.${c.name}: ${c.type}`;
            item.sortText = `0${c.name}`;
            if (/[^A-Za-z0-9_]/.test(c.name)) item.insertText = `\`${c.name}\``;
            items.push(item);
          }
        }
        return items;
      },
    },
    '.',
    ' ',
  );
}
