/**
 * Completion in the condition: while a field is typed, the table's columns and the map keys of the recent data; once
 * `field:` (Lucene) or `field = '` (SQL) is typed, the field's most frequent values (asked of the extension once per
 * field). Options are set as values of a datalist, never as markup.
 */
import { fieldNames, valueCondition, valueContext } from '../fieldNames';
import type { FromPage } from '../protocol';

export class Completer {
  private keys: [string, string][] = [];
  private readonly values = new Map<string, string[]>();
  private readonly asked = new Set<string>();
  /** Column names of the table (the view's fields). */
  columns: string[] = [];

  constructor(
    private readonly input: HTMLInputElement,
    private readonly list: HTMLDataListElement,
    private readonly language: () => 'lucene' | 'sql',
    private readonly post: (m: FromPage) => void,
  ) {}

  setKeys(keys: [string, string][]): void {
    this.keys = Array.isArray(keys) ? keys.filter((k) => Array.isArray(k) && k.length === 2) : [];
    this.offer();
  }

  setValues(field: string, values: string[]): void {
    this.values.set(String(field), Array.isArray(values) ? values.map(String) : []);
    this.offer();
  }

  /** Fills the list for the text typed so far. */
  offer(): void {
    const text = this.input.value;
    const lang = this.language();
    const value = valueContext(text, lang);
    if (value && this.offerValues(value, lang)) return;
    const m = /^(.*?[\s(-]?)([A-Za-z_][\w.\-/@]*(?:\['[^']*)?)?$/s.exec(text);
    const head = m?.[1] ?? text;
    const word = (m?.[2] ?? '').toLowerCase();
    const names = fieldNames(this.columns, this.keys, lang)
      .filter((f) => f.toLowerCase().startsWith(word))
      .slice(0, 200);
    const suffix = lang === 'sql' ? ' ' : ':';
    this.fill(names.map((f) => `${head}${f}${suffix}`));
  }

  /** Values of the field being typed (asked for once); false while none are known. */
  private offerValues(ctx: { head: string; field: string; partial: string }, lang: 'lucene' | 'sql'): boolean {
    const known = this.values.get(ctx.field);
    if (!known) {
      if (!this.asked.has(ctx.field) && this.asked.size < 500) {
        this.asked.add(ctx.field);
        this.post({ type: 'values', field: ctx.field });
      }
      return false;
    }
    const partial = ctx.partial.toLowerCase();
    const shown = known.filter((v) => v.toLowerCase().startsWith(partial)).slice(0, 100);
    this.fill(shown.map((v) => `${ctx.head}${valueCondition(ctx.field, v, lang)}`));
    return shown.length > 0;
  }

  private fill(values: string[]): void {
    this.list.replaceChildren(...values.map((value) => Object.assign(document.createElement('option'), { value })));
  }
}
