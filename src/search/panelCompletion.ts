/** Completion in a search panel's condition: the map keys (posted once the panel's first search is drawn) and values. */
import type { CompletionCache } from './completion';
import { fieldNames } from './fieldNames';
import type { ToPage } from './protocol';
import type { Run, SearchRequest } from './request';

export interface CompletionDeps {
  cache: CompletionCache;
  /** The source's key in the cache (connection, service, source). */
  sourceKey: string;
  request(): SearchRequest;
  run: Run;
  post(m: ToPage): void;
}

export class PanelCompletion {
  constructor(private readonly deps: CompletionDeps) {}

  private get req(): SearchRequest {
    return this.deps.request();
  }

  /** Reads the map keys (cached per source) and posts them to the page. */
  async keys(): Promise<[string, string][]> {
    const keys = await this.deps.cache.keys(this.deps.sourceKey, this.deps.run, this.req);
    if (keys.length) this.deps.post({ type: 'mapKeys', keys });
    return keys;
  }

  /** Reads a field's values (cached per source and field) and posts them to the page. */
  async values(field: string): Promise<string[]> {
    const values = await this.deps.cache.values(this.deps.sourceKey, String(field), this.deps.run, this.req);
    this.deps.post({ type: 'values', field: String(field), values });
    return values;
  }

  /** What completion offers: the fields (columns and map keys) in the condition's language, or a field's values. */
  async offered(field?: string): Promise<{ fields?: string[]; values?: string[] }> {
    if (field !== undefined) return { values: await this.values(field) };
    const keys = await this.keys();
    return { fields: fieldNames(Object.keys(this.req.columns ?? {}), keys, this.req.language) };
  }
}
