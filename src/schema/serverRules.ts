/**
 * Checks that follow the server a body is sent to. A self-hosted deployment may run a newer HyperDX than the one the
 * local schemas were written from, so a local check may block only what every server version refuses; what only some
 * versions accept is a warning there, and the server's answer decides. ClickHouse Cloud follows its newest spec
 * (`clickstack-openapi-1107336.yml`): what that spec does not accept is blocked before sending.
 *
 * Accepted by some HyperDX versions, not by the Cloud spec:
 * - a series `aggFn: "increase"` (sum metrics; HyperDX `AggregateFunctionSchema` since #2246);
 * - dashboard filters of type `STATIC_LIST` and `PROMETHEUS_LABEL` (#3017, #3053);
 * - alerts with `source: "inline"` and a `chartConfig` (#3010, #3043; the Cloud gateway refuses them);
 * - an alert's `displayName` (at most 512 characters) and `tags` (#3063, #3065, #3067; the Cloud spec lists neither).
 *   These two are dropped, not refused, where they are unknown: HyperDX's alert body schema (`b52a6fa8`) and the Cloud
 *   spec's alert body are not strict, so an older deployment and Cloud accept the body without them — a warning on
 *   both kinds, never a block.
 * Pure (no vscode import).
 */

import { isDeepStrictEqual } from 'node:util';

/** The kind of server a body is checked for: undefined checks against the local schemas only. */
export type ServerKind = 'cloud' | 'selfHosted';

type Path = readonly (string | number)[];

/** One use of a feature only some server versions accept, and the local schema issues it causes. */
export interface VersionedUse {
  /** Where it is. */
  readonly path: Path;
  /** What it is, for messages: `aggFn "increase"`. */
  readonly what: string;
  /** Issues at these paths (or below them) are what the local schema says about it. */
  readonly covers: readonly Path[];
  /** A server that does not know it drops it and accepts the rest of the body (rather than refusing the body). */
  readonly droppedWhereUnknown?: boolean;
}

/** A check's issue, as `schemaCheck` reports it. */
export interface RuleIssue {
  readonly path: Path;
  readonly message: string;
  readonly severity: 'error' | 'warning' | 'info';
  readonly atKey?: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NEWER_FILTER_TYPES = ['STATIC_LIST', 'PROMETHEUS_LABEL'];

/** Every use of a feature only some server versions accept, in a write body of a kind. */
export function versionedUses(kind: string, value: unknown): VersionedUse[] {
  const out: VersionedUse[] = [];
  if (!isObject(value)) return out;
  if (kind === 'dashboard') {
    const tiles = Array.isArray(value.tiles) ? value.tiles : [];
    tiles.forEach((tile, i) => {
      const config = isObject(tile) && isObject(tile.config) ? tile.config : undefined;
      const select = config && Array.isArray(config.select) ? config.select : [];
      select.forEach((item, j) => {
        if (isObject(item) && item.aggFn === 'increase') {
          const at = ['tiles', i, 'config', 'select', j];
          out.push({ path: [...at, 'aggFn'], what: 'aggFn "increase"', covers: [at, ['tiles', i, 'config']] });
        }
      });
    });
    const filters = Array.isArray(value.filters) ? value.filters : [];
    filters.forEach((filter, i) => {
      if (isObject(filter) && typeof filter.type === 'string' && NEWER_FILTER_TYPES.includes(filter.type)) {
        out.push({ path: ['filters', i, 'type'], what: `filter type "${filter.type}"`, covers: [['filters', i]] });
      }
    });
  }
  if (kind === 'alert' && value.source === 'inline') {
    out.push({
      path: ['source'],
      what: 'an inline alert (source "inline" with a chartConfig)',
      covers: [['source'], ['chartConfig'], ['dashboardId'], ['tileId'], ['savedSearchId'], ['groupBy'], []],
    });
  }
  if (kind === 'alert') {
    for (const key of ['displayName', 'tags'] as const) {
      if (value[key] !== undefined) {
        out.push({ path: [key], what: `an alert "${key}"`, covers: [[key]], droppedWhereUnknown: true });
      }
    }
  }
  return out;
}

function at(value: unknown, path: Path): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

function sameAt(a: unknown, b: unknown, path: Path): boolean {
  const x = at(a, path);
  return x !== undefined && isDeepStrictEqual(x, at(b, path));
}

function under(path: Path, prefix: Path): boolean {
  if (prefix.length === 0) return path.length === 0;
  return prefix.every((p, i) => path[i] === p);
}

/**
 * The issues of a local check as the server a body goes to would see them: on Cloud a use of a feature its spec does
 * not accept is an error that says so; on a self-hosted deployment it is a warning (newer versions accept it, the
 * server decides), and what the local schema said about it is dropped. Without a server kind, unchanged. `original`
 * is the server's own version of the body, when there is one: what it already holds at the same place (a pulled
 * alert's `displayName`, say) it accepts, and is neither warned about nor blocked.
 */
export function followServer(
  kind: string,
  value: unknown,
  issues: readonly RuleIssue[],
  server: ServerKind | undefined,
  original?: unknown,
): RuleIssue[] {
  const uses = server ? versionedUses(kind, value) : [];
  if (uses.length === 0) return [...issues];
  const kept = issues.filter((issue) => !uses.some((u) => u.covers.some((c) => under(issue.path, c))));
  // A value the server itself sent (the same at the same place of its own version) is one it accepts and keeps.
  const told = original === undefined ? uses : uses.filter((u) => !sameAt(value, original, u.path));
  const added: RuleIssue[] = told.map((u) =>
    u.droppedWhereUnknown
      ? {
          path: u.path,
          severity: 'warning',
          message:
            server === 'cloud'
              ? `${u.what} is not in ClickHouse Cloud's API: the service may drop it (newer self-hosted HyperDX keeps it)`
              : `${u.what} is kept by newer HyperDX versions only: an older deployment drops it`,
        }
      : server === 'cloud'
        ? {
            path: u.path,
            severity: 'error',
            message: `${u.what} is not accepted by ClickHouse Cloud (its API does not list it); self-hosted HyperDX accepts it in newer versions`,
          }
        : {
            path: u.path,
            severity: 'warning',
            message: `${u.what} is accepted by newer HyperDX versions only: an older deployment refuses it, and the server's answer decides`,
          },
  );
  return [...kept, ...added];
}
