/**
 * The search panel's page. Everything the server sent is set as text (`textContent`), never as markup; the rows list
 * is virtualised (only the rows in view are in the DOM), so 100,000 rows scroll as smoothly as 100.
 */
import { formatTime } from '../../panels/chartTime';
import type { FromPage, SearchView, ToPage } from '../protocol';
import { Completer } from './complete';
import { drawDetails } from './details';
import { drawHistogram } from './histogram';
import { drawPatterns } from './patterns';

declare function acquireVsCodeApi(): { postMessage(m: FromPage): void; setState(state: unknown): void };
const vscode = acquireVsCodeApi();
const post = (m: FromPage): void => vscode.postMessage(m);

const ROW_H = 22;
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const form = $<HTMLFormElement>('form');
const condition = $<HTMLInputElement>('condition');
const language = $<HTMLSelectElement>('language');
const preset = $<HTMLSelectElement>('preset');
const fromInput = $<HTMLInputElement>('from');
const toInput = $<HTMLInputElement>('to');
const tail = $<HTMLInputElement>('tail');
const toggleTable = $<HTMLButtonElement>('toggle-table');
const status = $('status');
const histogram = $('histogram');
const viewport = $('viewport');
const details = $('details');
const fields = $<HTMLDataListElement>('fields');
const saveAs = $<HTMLButtonElement>('save-as');
const tabEvents = $<HTMLButtonElement>('tab-events');
const tabPatterns = $<HTMLButtonElement>('tab-patterns');
const main = $('main');
const patterns = $('patterns');

let view: SearchView | undefined;
let asTable = false;
let selected = -1;
let bars = 0;
/** What the rows list last drew: the rows and the window of them. */
let drawnKey = '';
let drawnRows: string[][] | undefined;
const spacer = document.createElement('div');
const header = document.createElement('div');
header.className = 'hdr';

const pad = (n: number): string => String(n).padStart(2, '0');
function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function submit(range?: { from: number; to: number }): void {
  const custom =
    range ?? (preset.value === '' ? { from: Date.parse(fromInput.value), to: Date.parse(toInput.value) } : undefined);
  if (range) preset.value = '';
  post({
    type: 'search',
    condition: condition.value,
    language: language.value === 'sql' ? 'sql' : 'lucene',
    preset: preset.value,
    ...(custom ?? {}),
  });
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  submit();
});
preset.addEventListener('change', () => {
  fromInput.hidden = toInput.hidden = preset.value !== '';
  if (preset.value !== '') submit();
});
const completer = new Completer(condition, fields, () => (language.value === 'sql' ? 'sql' : 'lucene'), post);
const offerFields = (): void => completer.offer();
condition.addEventListener('input', offerFields);
language.addEventListener('change', offerFields);
saveAs.addEventListener('click', () => post({ type: 'saveAs' }));

/** Shows the events or their patterns (the extension mines them when the tab is first shown for a search). */
function showTab(tab: 'events' | 'patterns', tell: boolean): void {
  tabEvents.setAttribute('aria-selected', String(tab === 'events'));
  tabPatterns.setAttribute('aria-selected', String(tab === 'patterns'));
  main.hidden = tab !== 'events';
  patterns.hidden = tab !== 'patterns';
  if (tell) post({ type: 'tab', tab });
}
tabEvents.addEventListener('click', () => showTab('events', true));
tabPatterns.addEventListener('click', () => showTab('patterns', true));
tail.addEventListener('change', () => post({ type: 'tail', on: tail.checked }));
toggleTable.addEventListener('click', () => {
  asTable = !asTable;
  toggleTable.setAttribute('aria-pressed', String(asTable));
  toggleTable.textContent = asTable ? 'Histogram as chart' : 'Histogram as table';
  drawChart();
});

/** Scrolled away from the newest rows, or a row open: the live tail waits. */
let paused = false;
function updatePaused(): void {
  const now = viewport.scrollTop > 0 || !details.hidden;
  if (now !== paused) {
    paused = now;
    post({ type: 'paused', paused });
  }
}

function drawChart(): void {
  if (!view) return;
  bars = drawHistogram(histogram, view.histogram, view.range, asTable, (from, to) => submit({ from, to }));
}

function drawStatus(): void {
  if (!view) return;
  status.classList.toggle('error', Boolean(view.error));
  if (view.error) {
    status.textContent = view.error;
    return;
  }
  const shown = view.rows.length;
  const range = `${formatTime(view.range.from, true)} – ${formatTime(view.range.to, true)}`;
  status.textContent = `${view.histogram.total.toLocaleString()} events in ${range} · ${shown.toLocaleString()} rows shown, newest first${view.tail ? (paused ? ' · live tail paused' : ' · live tail') : ''}${view.notes.length ? ` · ${view.notes.join('; ')}` : ''}`;
}

function drawHeader(): void {
  header.replaceChildren();
  for (const c of view?.columns ?? []) {
    const d = document.createElement('div');
    d.textContent = c;
    d.title = c;
    header.append(d);
  }
}

/** The rows in view (and a few around them): the only rows in the DOM. */
function drawRows(): void {
  const rows = view?.rows ?? [];
  spacer.style.height = `${(rows.length + 1) * ROW_H}px`;
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_H) - 10);
  const last = Math.min(rows.length, first + Math.ceil(viewport.clientHeight / ROW_H) + 20);
  // The same rows in view: nothing to redraw (a row under the pointer stays the element clicked).
  const key = `${first}:${last}:${selected}`;
  if (rows === drawnRows && key === drawnKey) return;
  drawnKey = key;
  drawnRows = rows;
  const out: HTMLElement[] = [];
  for (let i = first; i < last; i++) out.push(rowElement(rows[i]!, i));
  viewport.replaceChildren(header, spacer, ...out);
}

function rowElement(cells: string[], i: number): HTMLElement {
  const row = document.createElement('div');
  row.className = i === selected ? 'row selected' : 'row';
  row.style.top = `${(i + 1) * ROW_H}px`;
  row.setAttribute('role', 'row');
  row.dataset.index = String(i);
  cells.forEach((text, c) => {
    const cell = document.createElement('div');
    cell.setAttribute('role', 'gridcell');
    const span = c === view?.spanIdColumn;
    if ((span || c === view?.traceIdColumn) && text !== '') {
      const a = document.createElement('a');
      a.href = '#';
      a.textContent = text;
      a.title = span ? 'Open span' : 'Open trace';
      a.addEventListener('click', (e) => {
        e.preventDefault();
        e.stopPropagation();
        post({ type: 'openTrace', index: i, ...(span ? { span } : {}) });
      });
      cell.append(a);
    } else {
      cell.textContent = text;
      cell.title = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    }
    row.append(cell);
  });
  return row;
}

function openRow(i: number): void {
  selected = i;
  details.hidden = false;
  details.replaceChildren(Object.assign(document.createElement('div'), { textContent: 'Loading…' }));
  updatePaused();
  drawRows();
  post({ type: 'details', index: i });
}

/** Epoch ms, the clock the extension host's timings use too (the same machine). */
const clock = (): number => performance.timeOrigin + performance.now();
/** The number of the view drawn (the extension host's), and when it arrived. */
let viewSeq: number | undefined;
let receivedAt: number | undefined;

/** Reports what is drawn once the frame that shows it is painted (a hidden page paints none: then after a while). */
function reportRendered(): void {
  const m = { type: 'rendered', rows: view?.rows.length ?? 0, bars, total: view?.histogram.total ?? 0 } as const;
  const at = { seq: viewSeq, receivedAt };
  let sent = false;
  const send = (paintedAt?: number): void => {
    if (sent) return;
    sent = true;
    post({ ...m, ...at, ...(paintedAt === undefined ? {} : { paintedAt }) });
  };
  requestAnimationFrame(() => setTimeout(() => send(clock()), 0));
  setTimeout(() => send(), 250);
}

function drawView(v: SearchView): void {
  view = v;
  condition.value = v.condition;
  language.value = v.language;
  preset.value = v.preset;
  fromInput.hidden = toInput.hidden = v.preset !== '';
  fromInput.value = toLocalInput(v.range.from);
  toInput.value = toLocalInput(v.range.to);
  tail.checked = v.tail;
  completer.columns = v.fields;
  offerFields();
  showTab(v.tab === 'patterns' ? 'patterns' : 'events', false);
  selected = -1;
  details.hidden = true;
  viewport.scrollTop = 0;
  updatePaused();
  drawHeader();
  drawRows();
  drawChart();
  drawStatus();
  reportRendered();
}

viewport.addEventListener('click', (e) => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  if (row?.dataset.index !== undefined) openRow(Number(row.dataset.index));
});
viewport.addEventListener('scroll', () => {
  updatePaused();
  drawRows();
  drawStatus();
});
window.addEventListener('resize', () => drawRows());
window.addEventListener('message', (e: MessageEvent<ToPage>) => {
  const m = e.data;
  if (!m || typeof m !== 'object') return;
  // Kept by VS Code with the panel: the search opens again after a window reload.
  if (m.type === 'state') vscode.setState(m.state);
  else if (m.type === 'view') {
    receivedAt = clock();
    viewSeq = m.seq;
    drawView(m.view);
  } else if (m.type === 'loading') status.textContent = 'Searching…';
  else if (m.type === 'details') {
    if (m.index !== selected) return;
    drawDetails(details, m, post, () => {
      details.hidden = true;
      selected = -1;
      updatePaused();
      drawRows();
    });
  } else if (m.type === 'patterns') drawPatterns(patterns, m.patterns);
  else if (m.type === 'mapKeys') completer.setKeys(m.keys);
  else if (m.type === 'values') completer.setValues(m.field, m.values);
  else if (m.type === 'prepend' && view) {
    view = { ...view, rows: [...m.rows, ...view.rows].slice(0, 100_000), histogram: m.histogram, range: m.range };
    if (selected >= 0) selected += m.rows.length;
    drawRows();
    drawChart();
    drawStatus();
    reportRendered();
  }
});
post({ type: 'ready' });
