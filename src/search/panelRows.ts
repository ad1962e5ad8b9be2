/**
 * The rows a search panel holds and what their buttons do: a row's details (every column of it, found again once and
 * kept), open its trace, copy a value, or change the search (add to search, exclude, show column).
 */
import * as vscode from 'vscode';
import type { QueryResult } from '../api/query';
import { rowDetails } from './details';
import { fullRow, type SearchModel, type SearchRequest } from './model';
import type { FromPage, ToPage } from './protocol';
import { rowEffect } from './rowActions';
import { FrameLinks } from '../panels/frameLinks';
import { withFrameLinks } from './stackLinks';

export interface RowsDeps {
  request(): SearchRequest;
  model(): SearchModel | undefined;
  run(sql: string): Promise<QueryResult>;
  post(m: ToPage): void;
  openTrace(traceId: string, time?: unknown, spanId?: string): void;
  search(): Promise<void>;
}

export class PanelRows {
  rows: unknown[][] = [];
  /** Every column of the rows whose details were opened, by row index. */
  private full = new Map<number, { columns: string[]; row: unknown[] }>();
  /** The stack-trace frame links of the details shown. */
  readonly frames = new FrameLinks();

  constructor(private readonly deps: RowsDeps) {}

  /** The rows of a new search (or none). */
  set(rows: unknown[][]): void {
    this.rows = rows;
    this.full.clear();
  }

  /** A row's details: every column of it when it can be found again, else the columns shown. */
  private async detailsOf(index: number): Promise<{ columns: string[]; row: unknown[] } | undefined> {
    const row = this.rows[index];
    const model = this.deps.model();
    if (!row || !model) return undefined;
    let full = this.full.get(index);
    if (!full) {
      const found = await fullRow((sql) => this.deps.run(sql), this.deps.request().source, model.columns, row).catch(
        () => undefined,
      );
      full = found ?? { columns: model.columns, row };
      this.full.set(index, full);
    }
    return full;
  }

  async onMessage(m: FromPage): Promise<void> {
    const model = this.deps.model();
    if (!('index' in m) || !model) return;
    if (m.type === 'openTrace' && m.field === undefined) {
      const id = this.rows[m.index]?.[model.traceIdColumn];
      const trace = typeof id === 'string' ? id : '';
      const span = m.span ? this.rows[m.index]?.[model.spanIdColumn] : undefined;
      // A span opens its trace with it selected (looked up by its ID when the row shows no trace ID).
      if (typeof span === 'string' && span !== '') this.deps.openTrace(trace, this.rowTime(m.index), span);
      else if (trace !== '') this.deps.openTrace(trace, this.rowTime(m.index));
      return;
    }
    const detail = await this.detailsOf(m.index);
    if (!detail || this.deps.model() !== model) return;
    const effect = rowEffect(m, rowDetails(detail.columns, detail.row), this.deps.request());
    if (effect?.kind === 'details') this.deps.post(await withFrameLinks(effect.message, this.frames));
    else if (effect?.kind === 'openTrace') this.deps.openTrace(effect.traceId, this.rowTime(m.index), effect.spanId);
    else if (effect?.kind === 'copy') await vscode.env.clipboard.writeText(effect.text);
    else if (effect?.kind === 'search') await this.deps.search();
  }

  /** The row's time: its column of the source's timestamp expression (its first part), when the rows show it. */
  private rowTime(index: number): unknown {
    const expr = String(this.deps.request().source.timestampValueExpression ?? '')
      .split(',')[0]
      ?.trim();
    const model = this.deps.model();
    const column = expr && model ? model.columns.indexOf(expr) : -1;
    return column >= 0 ? this.rows[index]?.[column] : undefined;
  }
}
