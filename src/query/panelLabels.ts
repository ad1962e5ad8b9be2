/** The results webview's texts (l10n): its labels, the summary line and the statement picker of a multi-statement run. */
import * as vscode from 'vscode';
import type { ResultMeta } from './panelMessages';
import type { ShownResult, StatementResult } from './panelState';

/** The summary line of a result whose query ended: rows, caps, time, bytes read, query ID, statements of the run. */
export function summaryMeta(shown: ShownResult): ResultMeta {
  const r = shown.result;
  return {
    service: shown.serviceName,
    sql: shown.sql,
    rowCount: r.rows.length,
    truncated: r.truncated ?? null,
    maxRows: shown.maxRows,
    maxBytes: shown.maxBytes,
    elapsedMs: Math.round(r.elapsedMs),
    bytes: r.bytes,
    stats: r.stats ?? null,
    queryId: r.queryId ?? null,
    ...statementsMeta(shown.runs, shown.index),
  };
}

/** The statement picker of a run with several statements: a label per statement and a note on which is shown. */
export function statementsMeta(
  runs: StatementResult[] = [],
  shownIndex?: number,
): {
  statements?: string[];
  statementIndex?: number;
  statementsNote?: string;
} {
  if (runs.length < 2) return {};
  const index = shownIndex ?? runs.length - 1;
  const oneLine = (sql: string): string => {
    const s = sql.replace(/\s+/g, ' ').trim();
    return s.length > 60 ? `${s.slice(0, 60)}…` : s;
  };
  return {
    statements: runs.map((r, i) =>
      vscode.l10n.t('{0}. {1} — {2} rows', i + 1, oneLine(r.sql), r.result.rows.length.toLocaleString()),
    ),
    statementIndex: index,
    statementsNote:
      index === runs.length - 1
        ? vscode.l10n.t('{0} statements ran; showing the last', runs.length)
        : vscode.l10n.t('{0} statements ran; showing statement {1}', runs.length, index + 1),
  };
}

export function labels(): Record<string, string> {
  return {
    table: vscode.l10n.t('Table'),
    chart: vscode.l10n.t('Chart'),
    copyCsv: vscode.l10n.t('Copy CSV'),
    copyJson: vscode.l10n.t('Copy JSON'),
    copyMarkdown: vscode.l10n.t('Copy Markdown'),
    openJson: vscode.l10n.t('Open as JSON'),
    rows: vscode.l10n.t('rows'),
    truncatedRows: vscode.l10n.t('stopped at the row limit'),
    truncatedBytes: vscode.l10n.t('stopped at the size limit'),
    read: vscode.l10n.t('read'),
    chartTable: vscode.l10n.t('Chart data as a table'),
    readoutHint: vscode.l10n.t('Hover the chart, or focus it and press ← →, to read the values.'),
    noRows: vscode.l10n.t('The query returned no rows.'),
    receiving: vscode.l10n.t('receiving rows…'),
  };
}
