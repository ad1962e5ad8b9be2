/**
 * The event pattern table of the preview webview, as HyperDX's pattern table: one row per pattern, most frequent
 * first, with its trend (a bar per time bucket, scaled to the row's largest bucket), its count ("~12"), its level and
 * its text (drawn as text only). The trends are also a table (*Trends as a table*: one row per pattern, one column
 * per bucket), built when first opened.
 */
import type { PatternsData } from '../protocol';
import { formatTime, zoneOfRange } from '../../panels/chartTime';

/** What the pattern table borrows from the page's script: element helpers and labels. */
export interface PatternsHost {
  el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K];
  l(key: string, fallback: string): string;
  fill(template: string, ...args: (string | number)[]): string;
}

const SVG = 'http://www.w3.org/2000/svg';
const MAX_PATTERNS = 500;

function severityClass(level: string): string {
  const s = level.toLowerCase();
  if (/^(fatal|crit|error|err)/.test(s)) return 'error';
  if (/^warn/.test(s)) return 'warn';
  if (/^(debug|trace)/.test(s)) return 'debug';
  return 'info';
}

/** A row's trend: bars on an SVG, labelled with every bucket's count for screen readers. */
function sparkline(d: PatternsData, trend: readonly number[], h: PatternsHost): SVGSVGElement {
  const width = Math.max(1, trend.length) * 4;
  const height = 20;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'trend');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  const max = Math.max(0, ...trend);
  const label = trend.map((c, i) => `${formatTime(d.times[i] as number)} ${c}`).join(', ');
  svg.setAttribute('aria-label', h.fill(h.l('trendOf', 'Trend: {0}'), label));
  const title = document.createElementNS(SVG, 'title');
  title.textContent = label;
  svg.appendChild(title);
  trend.forEach((c, i) => {
    if (c <= 0 || max <= 0) return;
    const bar = document.createElementNS(SVG, 'rect');
    const barHeight = Math.max(1, (c / max) * height);
    bar.setAttribute('x', String(i * 4));
    bar.setAttribute('width', '3');
    bar.setAttribute('y', String(height - barHeight));
    bar.setAttribute('height', String(barHeight));
    svg.appendChild(bar);
  });
  return svg;
}

/** The trends as a table inside a closed <details>. */
function trendTable(d: PatternsData, h: PatternsHost): HTMLElement {
  const details = h.el('details', 'data');
  details.appendChild(
    h.el('summary', undefined, h.fill(h.l('trendTable', 'Trends as a table ({0} rows)'), d.patterns.length)),
  );
  details.addEventListener('toggle', () => {
    if (!details.open || details.querySelector('table')) return;
    const wrap = details.appendChild(h.el('div', 'table-wrap'));
    const table = wrap.appendChild(h.el('table'));
    const head = table.createTHead().insertRow();
    const zone = d.times.length > 0 ? zoneOfRange(d.times[0] as number, d.times.at(-1) as number) : '';
    head.appendChild(h.el('th', undefined, h.l('pattern', 'Pattern'))).setAttribute('scope', 'col');
    for (const t of d.times) {
      head.appendChild(h.el('th', undefined, `${formatTime(t)} (${zone})`)).setAttribute('scope', 'col');
    }
    const body = table.createTBody();
    for (const p of d.patterns.slice(0, MAX_PATTERNS)) {
      const tr = body.insertRow();
      tr.appendChild(h.el('th', 'pattern', p.pattern)).setAttribute('scope', 'row');
      for (const c of p.trend) tr.appendChild(h.el('td', 'num', String(c)));
    }
  });
  return details;
}

export function drawPatterns(d: PatternsData, host: HTMLElement, h: PatternsHost): void {
  if (d.patterns.length === 0) {
    host.appendChild(h.el('p', 'muted', h.l('noPatterns', 'No events in this range.')));
    return;
  }
  const wrap = host.appendChild(h.el('div', 'table-wrap'));
  wrap.tabIndex = 0;
  const table = wrap.appendChild(h.el('table', 'patterns'));
  if (d.title) table.setAttribute('aria-label', d.title);
  const head = table.createTHead().insertRow();
  for (const name of [h.l('trend', 'Trend'), h.l('count', 'Count'), h.l('level', 'Level'), h.l('pattern', 'Pattern')]) {
    head.appendChild(h.el('th', undefined, name)).setAttribute('scope', 'col');
  }
  const body = table.createTBody();
  for (const p of d.patterns.slice(0, MAX_PATTERNS)) {
    const tr = body.insertRow();
    tr.appendChild(h.el('td', 'trend-cell')).appendChild(sparkline(d, p.trend, h));
    tr.appendChild(h.el('td', 'num', p.countText));
    tr.appendChild(h.el('td', p.level ? `sev sev-${severityClass(p.level)}` : undefined, p.level ?? ''));
    tr.appendChild(h.el('td', 'pattern', p.pattern));
  }
  if (d.patterns.length > MAX_PATTERNS) {
    host.appendChild(
      h.el(
        'p',
        'muted',
        h.fill(
          h.l('morePatterns', 'Showing the first {0} of {1} patterns; Open as Table shows all.'),
          MAX_PATTERNS,
          d.patterns.length,
        ),
      ),
    );
  }
  host.appendChild(trendTable(d, h));
}
