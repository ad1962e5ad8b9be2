/**
 * What a language-model tool of this extension is, and what the tools are given. Each tool lives in a file of its
 * own under ./tools; ./index.ts registers them with `vscode.lm.registerTool`.
 */
import type * as vscode from 'vscode';
import type { QueryResult, RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { LiveData } from '../resources/live';
import type { ToolText } from './text';

/** A tile's data as the preview draws it (the fields the tools read of each kind). */
export interface TileResult {
  readonly kind: string;
  readonly title?: string;
  readonly subtitle?: string;
  readonly columns?: readonly { readonly name: string }[];
  readonly rows?: readonly (readonly unknown[])[];
  readonly times?: readonly number[];
  readonly series?: readonly { readonly name: string; readonly values: readonly (number | null)[] }[];
  readonly value?: number | null;
  readonly lines?: readonly {
    readonly time: number | string;
    readonly severity?: string;
    readonly service?: string;
    readonly body: string;
  }[];
  readonly text?: string;
  /** Event patterns, most frequent first (`countText` as HyperDX shows it, e.g. "~12"). */
  readonly patterns?: readonly { readonly pattern: string; readonly countText: string; readonly level?: string }[];
  readonly reason?: string;
  readonly message?: string;
}

export interface TimeRange {
  readonly from: number;
  readonly to: number;
}

export interface ServiceRef {
  readonly connectionId: string;
  readonly serviceId: string;
}

/** A backtest's answer: how often the alert would have fired over the range. */
export interface BacktestSummary {
  readonly evaluations: number;
  readonly fired: number;
  readonly lastFiredAt?: number | undefined;
  readonly lastState: string;
}

/** The workspace's alert plan, as the alert files feature builds it (the fields the tools read). */
export interface AlertPlanView {
  readonly services: readonly {
    readonly serviceLabel: string;
    readonly baseUrl?: string;
    readonly connectionId?: string;
    readonly error?: string;
    readonly entries: readonly {
      readonly label: string;
      readonly action: string;
      readonly name?: string;
      readonly alertId?: string;
      readonly detail?: string;
    }[];
    readonly drift: readonly { readonly id: string; readonly name?: string }[];
  }[];
  readonly untargeted: readonly { readonly label: string; readonly action: string; readonly detail?: string }[];
  readonly counts: Readonly<Record<string, number>>;
}

/** One service folder's plan, as the service folders feature builds it (the fields the tools read). */
export interface ServiceFolderPlanView {
  /** The folder, relative to the workspace. */
  readonly folder: string;
  readonly plan?: {
    readonly serviceLabel: string;
    readonly steps: readonly {
      readonly kind: string;
      readonly name: string;
      readonly action: string;
      readonly path?: string;
      readonly changes: readonly { readonly path: string }[];
      readonly cascade: readonly string[];
    }[];
    readonly problems: readonly { readonly path?: string; readonly message: string }[];
  };
  /** Why the folder could not be planned. */
  readonly error?: string;
}

export interface AppliedPlanView {
  readonly outcome: string;
  readonly done: readonly { readonly label: string; readonly action: string; readonly id: string }[];
  readonly failed: readonly { readonly label: string; readonly error: string }[];
  readonly notAttempted: readonly string[];
}

/** What the wiring gives the tools: the service layers, and the other features' work as functions. */
export interface AgentDeps {
  readonly connections: ConnectionManager;
  readonly live: LiveData;
  readonly log: Logger;
  /** SQL on a Cloud service's query endpoint (the query feature's client: same host, key and rate budget). */
  runSql(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
  /** A saved tile's data, or a tile given whole (a search), for a range (the preview feature). */
  tileData(
    scope: ServiceRef,
    tile: { readonly dashboardId: string; readonly tileId: string } | { readonly tile: Record<string, unknown> },
    range: TimeRange,
  ): Promise<TileResult>;
  /** Replays an alert over a range (the preview feature's backtest). */
  backtest(scope: ServiceRef, alertId: string, range: TimeRange): Promise<BacktestSummary>;
  /** Plans the workspace's alert files (read-only; the alert files feature). */
  planAlertFiles(token?: vscode.CancellationToken): Promise<AlertPlanView>;
  /** Plans the workspace's service folders against their services (read-only; the service folders feature). */
  planServiceFolders(): Promise<readonly ServiceFolderPlanView[]>;
  /** Applies the plan (already confirmed; the alert files feature). */
  applyAlertPlan(): Promise<AppliedPlanView>;
}

export interface ToolContext {
  readonly deps: AgentDeps;
  readonly token: vscode.CancellationToken;
}

/** A write the user is asked to confirm: what VS Code shows, and the sending itself. */
export interface PlannedWrite {
  readonly title: string;
  /** Markdown: exactly what will be sent (server text in it escaped). */
  readonly message: string;
  send(ctx: ToolContext): Promise<ToolText>;
}

export interface ReadTool {
  readonly name: string;
  readonly kind: 'read';
  /** Reads the workspace's files: refused in an untrusted workspace. */
  readonly workspace?: boolean;
  /** The progress line VS Code shows while the tool runs. */
  running(input: Record<string, unknown>): string;
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<ToolText>;
}

export interface WriteTool {
  readonly name: string;
  readonly kind: 'write';
  running(input: Record<string, unknown>): string;
  /** What would be sent, or (nothing to send) the answer at once. */
  plan(input: Record<string, unknown>, ctx: ToolContext): Promise<PlannedWrite | ToolText>;
}

export type AgentTool = ReadTool | WriteTool;
