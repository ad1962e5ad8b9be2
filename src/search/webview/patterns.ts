/** The Patterns tab: one row per pattern (count, level, pattern, one event of it), most events first, as text only. */
import type { PatternsView } from '../protocol';

export function drawPatterns(box: HTMLElement, view: PatternsView | undefined): number {
  const status = document.createElement('div');
  status.className = view?.error ? 'note error' : 'note';
  if (!view || view.loading) {
    status.textContent = 'Mining patterns…';
    box.replaceChildren(status);
    return 0;
  }
  if (view.error) {
    status.textContent = view.error;
    box.replaceChildren(status);
    return 0;
  }
  const of = view.total !== undefined ? ` of ${view.total.toLocaleString()} events` : '';
  status.textContent =
    `${view.rows.length.toLocaleString()} patterns in ${view.sampled.toLocaleString()} rows${of}` +
    (view.note ? ` · ${view.note}` : '');
  const table = document.createElement('table');
  table.className = 'data patterns';
  const head = table.createTHead().insertRow();
  for (const h of ['Count', 'Level', 'Pattern', 'Sample']) {
    const th = document.createElement('th');
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const p of view.rows) {
    const tr = body.insertRow();
    for (const text of [p.countText, p.level ?? '', p.pattern, p.sample]) {
      const td = tr.insertCell();
      td.textContent = text;
      td.title = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    }
  }
  box.replaceChildren(status, table);
  return view.rows.length;
}
