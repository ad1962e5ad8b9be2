/**
 * The results webview's chart tab: a result with a time column and numeric columns as series over time (SVG), the
 * values at the cursor, and the same data as a table.
 */
import { seriesColors } from '../../panels/chartColors';
import { formatTime, formatTimeZoned, zoneOfRange } from '../../panels/chartTime';
import { isNumeric, isTime, text, type ResultMessage } from './result';

/** The theme kind VS Code sets on the body (vscode-light, vscode-dark, vscode-high-contrast(-light)). */
function themeKind(): string {
  const c = document.body.classList;
  for (const k of ['vscode-high-contrast-light', 'vscode-high-contrast', 'vscode-light', 'vscode-dark']) {
    if (c.contains(k)) return k;
  }
  return 'vscode-dark';
}

export interface Series {
  name: string;
  points: [number, number][];
}

export function chartSeries(m: ResultMessage): Series[] | undefined {
  const t = m.columns.findIndex((c) => isTime(c.type));
  if (t < 0) return undefined;
  const nums = m.columns.map((c, i) => (i !== t && isNumeric(c.type) ? i : -1)).filter((i) => i >= 0);
  if (nums.length === 0) return undefined;
  const time = (v: unknown): number =>
    Date.parse(`${String(v).replace(' ', 'T')}${/Z|[+-]\d\d:?\d\d$/.test(String(v)) ? '' : 'Z'}`);
  const groups = m.columns.map((c, i) => (i !== t && !isNumeric(c.type) ? i : -1)).filter((i) => i >= 0);
  const series = new Map<string, Series>();
  for (const row of m.rows) {
    if (!row) continue;
    const x = time(row[t]);
    if (!Number.isFinite(x)) continue;
    const group = groups.length === 1 ? text(row[groups[0] as number]) : '';
    for (const n of nums.slice(0, 4)) {
      const name = group ? (nums.length > 1 ? `${group} · ${m.columns[n]?.name}` : group) : String(m.columns[n]?.name);
      let s = series.get(name);
      if (!s) {
        if (series.size >= 8) continue;
        s = { name, points: [] };
        series.set(name, s);
      }
      s.points.push([x, Number(row[n])]);
    }
  }
  const list = [...series.values()].filter((s) => s.points.length > 0);
  for (const s of list) s.points.sort((a, b) => a[0] - b[0]);
  return list.length > 0 ? list : undefined;
}

function svgEl<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS('http://www.w3.org/2000/svg', name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export function renderChart(chartEl: HTMLElement, m: ResultMessage, series: Series[]): void {
  chartEl.textContent = '';
  const width = Math.max(360, chartEl.clientWidth - 24 || 640);
  const height = 260;
  const pad = { l: 56, r: 12, t: 10, b: 28 };
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const y0 = Math.min(0, ...ys);
  const y1 = Math.max(...ys) || 1;
  const sx = (x: number): number => pad.l + ((x - x0) / (x1 - x0 || 1)) * (width - pad.l - pad.r);
  const sy = (y: number): number => height - pad.b - ((y - y0) / (y1 - y0 || 1)) * (height - pad.t - pad.b);
  const svg = svgEl('svg', {
    width,
    height,
    role: 'img',
    'aria-label': `${series.map((s) => s.name).join(', ')} over time`,
  });
  svg.appendChild(
    svgEl('line', { class: 'axis', x1: pad.l, y1: height - pad.b, x2: width - pad.r, y2: height - pad.b }),
  );
  svg.appendChild(svgEl('line', { class: 'axis', x1: pad.l, y1: pad.t, x2: pad.l, y2: height - pad.b }));
  const label = (x: number, y: number, s: string, anchor: string): void => {
    const t = svgEl('text', { x, y, 'text-anchor': anchor });
    t.textContent = s;
    svg.appendChild(t);
  };
  const fmt = (n: number): string =>
    Math.abs(n) >= 1000 ? n.toLocaleString(undefined, { maximumFractionDigits: 0 }) : String(Math.round(n * 100) / 100);
  label(pad.l - 4, sy(y1) + 4, fmt(y1), 'end');
  label(pad.l - 4, sy(y0), fmt(y0), 'end');
  // The charts' one time format, in the viewer's zone, named.
  label(pad.l, height - 8, formatTimeZoned(x0), 'start');
  label(width - pad.r, height - 8, formatTimeZoned(x1), 'end');
  const legend = document.createElement('div');
  legend.className = 'legend';
  // Colours by series name: the same series has the same colour here as in tile previews.
  const css = getComputedStyle(document.body);
  const colors = seriesColors(
    series.map((s) => s.name),
    themeKind(),
    (name) => css.getPropertyValue(name),
  );
  series.forEach((s, i) => {
    const color = colors[i] as string;
    svg.appendChild(
      svgEl('polyline', {
        fill: 'none',
        stroke: color,
        'stroke-width': 1.5,
        points: s.points.map((p) => `${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join(' '),
      }),
    );
    const item = document.createElement('span');
    item.style.color = color;
    item.textContent = s.name;
    legend.appendChild(item);
  });
  chartEl.appendChild(legend);
  chartEl.appendChild(svg);
  const times = [...new Set(xs)].sort((a, b) => a - b);
  const lookup = series.map((s) => new Map(s.points));
  const plot = { sx, top: pad.t, bottom: height - pad.b };
  chartEl.appendChild(readout(svg, times, series, lookup, colors, plot, fmt, m.labels.readoutHint ?? ''));
  // The same data as a table (screen readers, exact values).
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = m.labels.chartTable ?? '';
  details.appendChild(summary);
  const table = document.createElement('table');
  table.className = 'data';
  const head = table.createTHead().insertRow();
  for (const h of [`time (${zoneOfRange(x0, x1)})`, ...series.map((s) => s.name)]) {
    const th = document.createElement('th');
    th.textContent = h;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const x of times.slice(0, 2000)) {
    const tr = body.insertRow();
    tr.insertCell().textContent = formatTime(x);
    for (const l of lookup) tr.insertCell().textContent = l.has(x) ? fmt(l.get(x) as number) : '';
  }
  details.appendChild(table);
  chartEl.appendChild(details);
}

/**
 * The values at the cursor: a line at the nearest time and, below the chart, that time (with the zone) and each
 * series' value, named, in the series' colour. The chart takes the focus; ← → Home End move from time to time.
 */
function readout(
  svg: SVGSVGElement,
  times: readonly number[],
  series: readonly Series[],
  lookup: readonly Map<number, number>[],
  colors: readonly string[],
  plot: { sx: (x: number) => number; top: number; bottom: number },
  fmt: (n: number) => string,
  hint: string,
): HTMLElement {
  const box = document.createElement('div');
  box.className = 'readout';
  box.setAttribute('aria-live', 'polite');
  box.textContent = hint;
  const cursor = svgEl('line', { class: 'cursor', y1: plot.top, y2: plot.bottom, x1: -10, x2: -10 });
  svg.appendChild(cursor);
  let index = -1;
  const show = (i: number): void => {
    index = i;
    const t = times[i] as number;
    const x = plot.sx(t).toFixed(1);
    cursor.setAttribute('x1', x);
    cursor.setAttribute('x2', x);
    box.textContent = '';
    const when = document.createElement('strong');
    when.textContent = formatTimeZoned(t);
    box.appendChild(when);
    series.forEach((s, k) => {
      const item = document.createElement('span');
      item.className = 'item';
      item.style.setProperty('--swatch', colors[k] as string);
      const v = lookup[k]?.get(t);
      item.textContent = `${s.name} ${v === undefined ? '—' : fmt(v)}`;
      box.appendChild(item);
    });
  };
  const nearest = (t: number): number => {
    let best = 0;
    for (let i = 1; i < times.length; i++) {
      if (Math.abs((times[i] as number) - t) < Math.abs((times[best] as number) - t)) best = i;
    }
    return best;
  };
  svg.addEventListener('mousemove', (e) => {
    const r = svg.getBoundingClientRect();
    const x = e.clientX - r.left;
    const t0 = times[0] as number;
    const t1 = times.at(-1) as number;
    const px0 = plot.sx(t0);
    const px1 = plot.sx(t1);
    show(nearest(t0 + ((x - px0) / (px1 - px0 || 1)) * (t1 - t0)));
  });
  svg.setAttribute('tabindex', '0');
  svg.addEventListener('keydown', (e) => {
    const n = times.length;
    const next: Record<string, number> = {
      ArrowLeft: Math.max(0, (index < 0 ? n : index) - 1),
      ArrowRight: Math.min(n - 1, index + 1),
      Home: 0,
      End: n - 1,
    };
    const i = next[e.key];
    if (i === undefined || n === 0) return;
    e.preventDefault();
    show(i);
  });
  return box;
}
