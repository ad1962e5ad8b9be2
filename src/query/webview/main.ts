/**
 * Script of the query results webview (bundled on its own into dist/queryResults.js; never loaded by the
 * extension host). A virtualized table: only the rows in view (plus a margin) exist in the DOM, so 10,000 rows
 * scroll as smoothly as 10. A chart tab appears when the result has a time column and numeric columns; it comes
 * with the same data as a table.
 */
import { chartSeries, renderChart } from './chart';
import { drawFrameCell, onFrameClick, setFrames, type FramesMessage } from './frames';
import { isNumeric, isTime, text, type ResultMessage } from './result';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
/** Now on the machine's clock (epoch milliseconds), the same clock as the extension host's stamps. */
const clock = (): number => performance.timeOrigin + performance.now();
const ROW_HEIGHT = 22;
const OVERSCAN = 20;

const $ = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;
const viewport = $('viewport');
const chartEl = $('chart');
const tabTable = $('tab-table');
const tabChart = $('tab-chart');

let current: ResultMessage | undefined;
let widths: number[] = [];
let rowsLayer: HTMLDivElement | undefined;
let rendered = { first: -1, last: -1 };

/** Columns whose cells are trace IDs (`TraceId`, `trace_id`, `traceId`): each such cell is a link to the trace. */
const isTraceColumn = (name: string): boolean => /^trace_?id$/i.test(name);
const TRACE_ID = /^[0-9a-f]{32}$/i;
/** Columns whose cells are span IDs (`SpanId`, `ParentSpanId`, `span_id`): a link to the span in its trace. */
const isSpanColumn = (name: string): boolean => /^(parent_?)?span_?id$/i.test(name);
const SPAN_ID = /^[0-9a-f]{16}$/i;
/** Columns whose cells are saved-search IDs (`savedSearchId`, `saved_search_id`): a link opening the saved search. */
const isSavedSearchColumn = (name: string): boolean => /^saved_?search_?id$/i.test(name);
const SAVED_SEARCH_ID = /^[0-9a-z_-]{1,64}$/i;

type LinkKind = 'trace' | 'span' | 'search';
const LINK_TITLES: Record<LinkKind, string> = {
  trace: 'Open trace',
  span: 'Open this span in its trace',
  search: 'Open the saved search in Search',
};

/** What a cell links to, by its column's name and its text; undefined for plain text. */
function linkKind(name: string, v: unknown): LinkKind | undefined {
  if (typeof v !== 'string') return undefined;
  if (isTraceColumn(name)) return TRACE_ID.test(v) ? 'trace' : undefined;
  if (isSpanColumn(name)) return SPAN_ID.test(v) ? 'span' : undefined;
  if (isSavedSearchColumn(name)) return SAVED_SEARCH_ID.test(v) ? 'search' : undefined;
  return undefined;
}

/** The row's time sent with a trace link: a `Timestamp` column, else the first date column. */
function timeColumn(m: ResultMessage): number {
  const named = m.columns.findIndex((c) => /^timestamp$/i.test(c.name) && isTime(c.type));
  return named >= 0 ? named : m.columns.findIndex((c) => isTime(c.type));
}

function measureWidths(m: ResultMessage): number[] {
  return m.columns.map((c, i) => {
    let len = Math.max(c.name.length, c.type.length);
    for (let r = 0; r < Math.min(m.rows.length, 200) && m.rows[r]; r++) {
      len = Math.max(len, text(m.rows[r]?.[i]).length);
    }
    return Math.min(480, Math.max(64, len * 8.5 + 24));
  });
}

function renderTable(m: ResultMessage): void {
  viewport.textContent = '';
  viewport.setAttribute('aria-rowcount', String(m.rows.length + 1));
  viewport.setAttribute('aria-colcount', String(m.columns.length));
  if (m.columns.length === 0 || m.rows.length === 0) {
    const empty = document.createElement('div');
    empty.className = 'empty';
    empty.textContent = m.labels.noRows ?? '';
    viewport.appendChild(empty);
    rowsLayer = undefined;
    return;
  }
  widths = measureWidths(m);
  const total = widths.reduce((a, b) => a + b, 0);
  const hdr = document.createElement('div');
  hdr.className = 'hdr';
  hdr.setAttribute('role', 'row');
  hdr.style.width = `${total}px`;
  m.columns.forEach((c, i) => {
    const cell = document.createElement('div');
    cell.setAttribute('role', 'columnheader');
    cell.style.width = `${widths[i]}px`;
    cell.title = `${c.name}: ${c.type}`;
    if (isNumeric(c.type)) cell.classList.add('num');
    cell.textContent = c.name;
    const type = document.createElement('small');
    type.textContent = c.type;
    cell.appendChild(type);
    hdr.appendChild(cell);
  });
  viewport.appendChild(hdr);
  const layer = document.createElement('div');
  layer.style.position = 'relative';
  layer.style.height = `${m.rows.length * ROW_HEIGHT}px`;
  layer.style.width = `${total}px`;
  viewport.appendChild(layer);
  rowsLayer = layer;
  rendered = { first: -1, last: -1 };
  renderRows(0);
}

/** The rows in view (and a margin). `scrolled`: the table's scroll position when known (not laid out to read it). */
function renderRows(scrolled = viewport.scrollTop): void {
  const m = current;
  if (!m || !rowsLayer) return;
  // At the top (a new result), the rows a window's height holds: nothing is laid out before the rows are drawn.
  const top = scrolled > 0 ? Math.max(0, scrolled - (viewport.firstElementChild as HTMLElement).offsetHeight) : 0;
  const height = scrolled > 0 ? viewport.clientHeight : window.innerHeight;
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(m.rows.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
  if (first === rendered.first && last === rendered.last) return;
  rendered = { first, last };
  const numeric = m.columns.map((c) => isNumeric(c.type));
  const frag = document.createDocumentFragment();
  for (let r = first; r < last; r++) {
    const row = document.createElement('div');
    row.className = 'row';
    row.setAttribute('role', 'row');
    row.setAttribute('aria-rowindex', String(r + 2));
    row.style.top = `${r * ROW_HEIGHT}px`;
    const values = m.rows[r];
    if (!values) row.classList.add('null');
    for (let c = 0; c < m.columns.length; c++) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.style.width = `${widths[c]}px`;
      const v = values ? values[c] : undefined;
      cell.textContent = values ? text(v) : '…';
      const kind = values ? linkKind(m.columns[c]!.name, v) : undefined;
      if (kind) {
        // The extension opens it (the page only says which ID and row time): the text stays text.
        const link = document.createElement('a');
        link.href = '#';
        link.className = `link ${kind}`;
        link.dataset.row = String(r);
        link.dataset.col = String(c);
        link.title = LINK_TITLES[kind];
        link.textContent = v as string;
        cell.replaceChildren(link);
      } else if (typeof v === 'string') drawFrameCell(cell, m.seq, r, c, v);
      if (numeric[c]) cell.className = 'num';
      if (v === null) cell.className += ' null';
      row.appendChild(cell);
    }
    frag.appendChild(row);
  }
  rowsLayer.replaceChildren(frag);
}

function select(tab: 'table' | 'chart'): void {
  const chart = tab === 'chart';
  tabTable.setAttribute('aria-selected', String(!chart));
  tabChart.setAttribute('aria-selected', String(chart));
  viewport.hidden = chart;
  chartEl.hidden = !chart;
  if (chart && current) {
    const s = chartSeries(current);
    if (s) renderChart(chartEl, current, s);
  }
}

/** Rows after the first screen arrive in batches; until then their cells show as pending. */
function onRows(seq: number, from: number, rowsJson: string): void {
  const m = current;
  if (!m || m.seq !== seq) return;
  const rows = JSON.parse(rowsJson) as unknown[][];
  for (let i = 0; i < rows.length; i++) m.rows[from + i] = rows[i] as unknown[];
  loaded += rows.length;
  // The panel sends the next batch of a streamed result once this one is in.
  vscode.postMessage({ type: 'ack', seq });
  if (m.meta.streaming) {
    // The table grows as the rows arrive; the summary says how many came so far.
    m.meta.rowCount = m.rows.length;
    if (rowsLayer) rowsLayer.style.height = `${m.rows.length * ROW_HEIGHT}px`;
    viewport.setAttribute('aria-rowcount', String(m.rows.length + 1));
    renderMeta(m);
  }
  if (from <= rendered.last && from + rows.length >= rendered.first) {
    rendered = { first: -1, last: -1 };
    renderRows();
  }
  if (!m.meta.streaming && loaded >= m.meta.rowCount) allLoaded(m);
}

/** Every row is here (those in view are in the table's DOM; the frame that shows them follows). */
function allLoaded(m: ResultMessage): void {
  vscode.postMessage({ type: 'loaded', seq: m.seq, rows: loaded, at: clock() });
  if (!chartEl.hidden) select('chart');
  tabChart.hidden = !chartSeries(m);
}

let loaded = 0;
/** The result shown before a streamed one, shown again when that query fails or is cancelled. */
let previous: ResultMessage | undefined;

function renderMeta(m: ResultMessage): void {
  const l = m.labels;
  const runs = m.meta.statements ?? [];
  const meta = $('meta');
  meta.textContent = '';
  if (runs.length > 1 && m.meta.statementsNote) meta.append(`${m.meta.statementsNote} · `);
  const parts = [`${m.meta.service}`, `${m.meta.rowCount.toLocaleString()} ${l.rows}`];
  if (m.meta.streaming) parts.push(l.receiving ?? '…');
  else parts.push(`${m.meta.elapsedMs.toLocaleString()} ms`);
  if (m.meta.stats?.readRows !== undefined) {
    parts.push(
      `${l.read} ${m.meta.stats.readRows.toLocaleString()} ${l.rows}${m.meta.stats.readBytes !== undefined ? `, ${(m.meta.stats.readBytes / 1048576).toFixed(1)} MiB` : ''}`,
    );
  }
  meta.append(parts.join(' · '));
  if (m.meta.truncated) {
    const warn = document.createElement('span');
    warn.className = 'warn';
    warn.textContent = ` · ${m.meta.truncated === 'rows' ? `${l.truncatedRows} (${m.meta.maxRows.toLocaleString()})` : `${l.truncatedBytes} (${Math.round(m.meta.maxBytes / 1048576)} MiB)`}`;
    meta.appendChild(warn);
  }
  meta.title = m.meta.sql + (m.meta.queryId ? `\nquery ID ${m.meta.queryId}` : '');
}

/** The statement picker of a run with several statements (hidden for one). */
function renderPicker(m: ResultMessage): void {
  const picker = $('statement') as HTMLSelectElement;
  const runs = m.meta.statements ?? [];
  picker.hidden = runs.length < 2;
  picker.textContent = '';
  if (runs.length > 1) {
    for (const [i, label] of runs.entries()) {
      picker.add(new Option(label, String(i), false, i === m.meta.statementIndex));
    }
    picker.title = m.meta.statementsNote ?? '';
    picker.setAttribute('aria-label', m.meta.statementsNote ?? '');
  }
}

/** The header (labels, statement picker, summary) and the table of a result. */
function display(m: ResultMessage): ReturnType<typeof chartSeries> {
  // First, while the page is laid out: setting it after the changes below would lay the page out to set it.
  if (viewport.scrollTop !== 0) viewport.scrollTop = 0;
  current = m;
  const l = m.labels;
  // The labels are set once (setting the same text again would lay out and paint the header again).
  const label = (el: HTMLElement, text: string | undefined): void => {
    if (text !== undefined && el.textContent !== text) el.textContent = text;
  };
  label(tabTable, l.table);
  label(tabChart, l.chart);
  label($('copy-csv'), l.copyCsv);
  label($('copy-json'), l.copyJson);
  label($('copy-md'), l.copyMarkdown);
  label($('open-json'), l.openJson);
  renderPicker(m);
  renderMeta(m);
  // The chart is offered once every row is in.
  const series = m.meta.streaming ? undefined : chartSeries(m);
  tabChart.hidden = !series;
  select('table');
  renderTable(m);
  return series;
}

/**
 * Reports the table painted: the whole result, or the first rows of a streamed one. `received` is when its message
 * came; `at` is taken after the frame that shows it (the next animation frame, then a task: the paint has happened).
 */
function reportPainted(
  m: ResultMessage,
  started: number,
  series: ReturnType<typeof chartSeries>,
  received: number,
): void {
  const picker = $('statement') as HTMLSelectElement;
  const firstRows = m.meta.streaming === true;
  requestAnimationFrame(() =>
    setTimeout(() => {
      const at = clock();
      if (firstRows) {
        vscode.postMessage({
          type: 'painted',
          seq: m.seq,
          rows: loaded,
          ms: performance.now() - started,
          received,
          at,
        });
        return;
      }
      vscode.postMessage({
        type: 'rendered',
        seq: m.seq,
        ms: performance.now() - started,
        rows: m.meta.rowCount,
        columns: m.columns.length,
        chart: Boolean(series),
        visibleRows: rowsLayer?.childElementCount ?? 0,
        statements: picker.hidden ? 1 : picker.options.length,
        statement: picker.hidden ? 0 : picker.selectedIndex,
        received,
        at,
      });
    }, 0),
  );
}

function onResult(m: ResultMessage): void {
  const received = clock();
  const started = performance.now();
  const first = m.rowsJson !== undefined ? (JSON.parse(m.rowsJson) as unknown[][]) : m.rows;
  if (m.meta.streaming) {
    if (current && !current.meta.streaming) previous = current;
    m.rows = first;
  } else {
    m.rows = new Array<unknown[]>(m.meta.rowCount);
    for (let i = 0; i < first.length; i++) m.rows[i] = first[i] as unknown[];
  }
  loaded = first.length;
  if (m.meta.streaming) vscode.postMessage({ type: 'ack', seq: m.seq });
  const series = display(m);
  if (!m.meta.streaming && loaded >= m.meta.rowCount) {
    vscode.postMessage({ type: 'loaded', seq: m.seq, rows: loaded, at: clock() });
  }
  reportPainted(m, started, series, received);
}

/**
 * A streamed result's query ended: its summary (count, time, caps). The rows not yet here follow (shown as pending
 * until then); the chart tab is offered from the rows here, and again once all are.
 */
function onDone(seq: number, meta: ResultMessage['meta']): void {
  const m = current;
  if (!m || m.seq !== seq) return;
  const received = clock();
  const started = performance.now();
  m.meta = meta;
  m.rows.length = meta.rowCount;
  if (rowsLayer) rowsLayer.style.height = `${m.rows.length * ROW_HEIGHT}px`;
  viewport.setAttribute('aria-rowcount', String(m.rows.length + 1));
  renderPicker(m);
  renderMeta(m);
  // The rows in view are drawn already; only a range the new count changes is drawn again.
  renderRows();
  const series = chartSeries(m);
  tabChart.hidden = !series;
  if (loaded >= meta.rowCount) vscode.postMessage({ type: 'loaded', seq, rows: loaded, at: clock() });
  reportPainted(m, started, series, received);
}

/** A streamed result's query failed or was cancelled: the result before it comes back. */
function onAbort(seq: number): void {
  if (!current || current.seq !== seq) return;
  if (previous) {
    display(previous);
    loaded = previous.rows.length;
  } else {
    current = undefined;
    viewport.textContent = '';
    $('meta').textContent = '';
    rowsLayer = undefined;
  }
}

viewport.addEventListener('scroll', () => requestAnimationFrame(() => renderRows()), { passive: true });
viewport.addEventListener('click', (e) => {
  if (onFrameClick(e, (m) => vscode.postMessage(m))) return;
  const link = (e.target as HTMLElement).closest('a.link') as HTMLElement | null;
  if (!link || !current) return;
  e.preventDefault();
  const m = current;
  const row = m.rows[Number(link.dataset.row)];
  const t = timeColumn(m);
  const id = row?.[Number(link.dataset.col)];
  if (typeof id !== 'string') return;
  const time = t >= 0 && row?.[t] != null ? { time: row[t] } : {};
  if (link.classList.contains('search')) vscode.postMessage({ type: 'openSavedSearch', savedSearchId: id });
  else if (link.classList.contains('span')) {
    // The row's trace ID, when it has one: else the extension looks the span up.
    const traceId = row?.find((v, i) => isTraceColumn(m.columns[i]!.name) && typeof v === 'string' && TRACE_ID.test(v));
    vscode.postMessage({ type: 'openTrace', spanId: id, ...(traceId ? { traceId } : {}), ...time });
  } else vscode.postMessage({ type: 'openTrace', traceId: id, ...time });
});
window.addEventListener('resize', () => requestAnimationFrame(() => renderRows()));
tabTable.addEventListener('click', () => select('table'));
tabChart.addEventListener('click', () => select('chart'));
for (const el of [tabTable, tabChart]) {
  el.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const other = el === tabTable ? tabChart : tabTable;
      if (!other.hidden) {
        other.focus();
        select(other === tabChart ? 'chart' : 'table');
      }
    }
  });
}
$('statement').addEventListener('change', () =>
  vscode.postMessage({ type: 'statement', index: Number(($('statement') as HTMLSelectElement).value) }),
);
$('copy-csv').addEventListener('click', () => vscode.postMessage({ type: 'copy', format: 'csv' }));
$('copy-json').addEventListener('click', () => vscode.postMessage({ type: 'copy', format: 'json' }));
$('copy-md').addEventListener('click', () => vscode.postMessage({ type: 'copy', format: 'markdown' }));
$('open-json').addEventListener('click', () => vscode.postMessage({ type: 'openJson' }));
window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as { type?: string };
  if (m?.type === 'result') onResult(m as ResultMessage);
  else if (m?.type === 'rows') {
    const r = m as { seq: number; from: number; rowsJson: string };
    onRows(r.seq, r.from, r.rowsJson);
  } else if (m?.type === 'done') {
    const d = m as { seq: number; meta: ResultMessage['meta'] };
    onDone(d.seq, d.meta);
  } else if (m?.type === 'abort') onAbort((m as { seq: number }).seq);
  else if (m?.type === 'frames' && (m as FramesMessage).seq === current?.seq) {
    setFrames(m as FramesMessage);
    rendered = { first: -1, last: -1 };
    renderRows();
  }
});
vscode.postMessage({ type: 'ready' });
