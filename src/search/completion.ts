/**
 * The completion data of a source, cached (no `vscode`): its map keys and the values of its fields in the recent
 * data, each read once by one bounded statement through the search's SQL route (the key's one rate budget) and kept
 * for a few minutes per source. A statement that fails is not kept (the next request tries again) and offers nothing.
 */
import { fieldTarget, fieldValuesSql, mapKeysOf, mapKeysSql, valuesOf } from './completionSql';
import type { Run, SearchRequest } from './request';

/** How long keys and values are kept; sources and fields kept at most. */
export const COMPLETION_TTL_MS = 5 * 60_000;
const MAX_SOURCES = 50;
const MAX_FIELDS = 200;

interface Entry {
  at: number;
  keys?: Promise<[string, string][]>;
  values: Map<string, Promise<string[]>>;
}

export class CompletionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  private entry(source: string): Entry {
    let e = this.entries.get(source);
    if (!e || this.now() - e.at > COMPLETION_TTL_MS) {
      e = { at: this.now(), values: new Map() };
      this.entries.delete(source);
      this.entries.set(source, e);
      while (this.entries.size > MAX_SOURCES) this.entries.delete(this.entries.keys().next().value!);
    }
    return e;
  }

  /** [map column, key] pairs of the source's recent data. */
  keys(source: string, run: Run, req: SearchRequest): Promise<[string, string][]> {
    const e = this.entry(source);
    if (e.keys) return e.keys;
    const sql = mapKeysSql(req);
    const fresh: Promise<[string, string][]> = sql
      ? run(sql)
          .then((r) => mapKeysOf(r.rows))
          .catch(() => {
            if (e.keys === fresh) e.keys = undefined;
            return [];
          })
      : Promise.resolve([]);
    e.keys = fresh;
    return fresh;
  }

  /** The most frequent values of a field (a column or map key of the table) in the recent data. */
  values(source: string, field: string, run: Run, req: SearchRequest): Promise<string[]> {
    const target = fieldTarget(field, req.columns);
    if (!target) return Promise.resolve([]);
    const e = this.entry(source);
    const key = target.key === undefined ? target.column : `${target.column}\u0000${target.key}`;
    let p = e.values.get(key);
    if (!p) {
      const fresh: Promise<string[]> = run(fieldValuesSql(req, target))
        .then((r) => valuesOf(r.rows))
        .catch(() => {
          if (e.values.get(key) === fresh) e.values.delete(key);
          return [];
        });
      p = fresh;
      e.values.set(key, p);
      while (e.values.size > MAX_FIELDS) e.values.delete(e.values.keys().next().value!);
    }
    return p;
  }
}
