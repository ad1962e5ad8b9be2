/** What the parts of the previews share: their dependencies, the outcome a command answers, what a preview is of. */
import type * as vscode from 'vscode';
import type { QueryResult, RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { SqlHold } from '../sqlHold';
import type { LiveData } from '../resources/live';
import type { RenderedState } from './panel';
import type { TimeRange } from './protocol';
import type { DashboardLike } from '../render';

export interface PreviewDeps {
  connections: ConnectionManager;
  live: LiveData;
  log: Logger;
  /** Runs SQL on a service's query endpoint (the query feature's client for the connection). */
  runSql(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
  /**
   * SQL the user did not ask for (the "would have fired" lens, the agent's Alert tool): held while the service is not
   * ready for it (no query host, key not enabled, idle), never waking it. Without it, such SQL is not sent at all.
   */
  background?: {
    hold(connectionId: string, serviceId: string): SqlHold | undefined;
    run(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
    readonly onDidRelease: vscode.Event<void>;
  };
  /** Shows rows in the SQL results panel (Run Saved Search). */
  showRows?(shown: {
    result: QueryResult;
    serviceName: string;
    sql: string;
    /** The service the rows come from (a trace ID in them opens there). */
    target?: { connectionId: string; serviceId: string };
  }): Promise<unknown>;
}

/** What a preview command answers (tests read it). */
export interface PreviewOutcome {
  ok: boolean;
  rendered?: RenderedState['summary'] | undefined;
  sql?: string | undefined;
  /** Self-hosted deployments: the chart series or search request the preview sent (route and JSON body). */
  request?: string | undefined;
  error?: string | undefined;
  /** Backtests: how many windows fired, the last one's end, and the last window's state. */
  fired?: number | undefined;
  lastFiredAt?: number | undefined;
  lastState?: string | undefined;
  /** From the command until the panel reported everything drawn, ms. */
  elapsedMs?: number | undefined;
  /** Query endpoint requests the command made. */
  queries?: number | undefined;
  /** The time range the panel drew. */
  range?: TimeRange | undefined;
  /** Dashboards: the statement each tile ran (in tile order; tiles without a query have none). */
  statements?: string[] | undefined;
}

export interface Scope {
  connectionId: string;
  serviceId: string;
}

/** Where a tile or dashboard comes from: the service (tree, IDs) or a dashboard document (its current text). */
export interface DashboardSource extends Scope {
  dashboard: DashboardLike & { id?: string; name?: string; tiles?: unknown[] };
  uri?: vscode.Uri | undefined;
}

export interface AlertSource extends Scope {
  alert: Record<string, unknown>;
  uri?: vscode.Uri | undefined;
}

export const SOURCE_TTL_MS = 60_000;
/**
 * Column types of a source's table change rarely; kept longer, so a dashboard previewed again spends its query budget
 * on its tiles, not on column types (the tables of a whole dashboard are one statement of the 10 per 10 s).
 */
export const COLUMNS_TTL_MS = 10 * 60_000;
/**
 * Tiles of a dashboard queried at once when they run as their own statements (the batch failed with an SQL error);
 * the rate limiter spaces them further if the budget is short.
 */
export const TILE_CONCURRENCY = 4;
/** Rows and bytes read per tile statement. */
export const TILE_LIMITS = { maxRows: 10_000, maxBytes: 16 * 1024 * 1024 };
export const FOLLOW_DELAY_MS = 800;
/** Events a saved search run shows (the search API's maximum per request is 2,000). */
export const SAVED_SEARCH_ROWS = 1000;
/** How long a "would have fired" lens holds before it is computed again (the 24 h it covers move on). */
export const FIRED_TTL_MS = 5 * 60_000;
/** A failed backtest is tried again on the next look after this long (or at once when the alert changes). */
export const FAILED_TTL_MS = 60_000;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
