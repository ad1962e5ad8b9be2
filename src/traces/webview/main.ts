/**
 * The trace panel's script: the waterfall (every span by start and duration, nested, coloured by service, errors and
 * orphans marked, subtrees collapsible, a time axis), drawn as a virtualised tree grid so 100,000 rows scroll; the
 * keyboard moves the selection (arrows, Home/End, PageUp/PageDown, Left/Right collapse and expand); the selected
 * span's details come from the extension. Every string from the service is set as text.
 */
import { seriesColors } from '../../panels/chartColors';
import {
  ROW_CYCLE,
  ROW_DUPLICATE,
  ROW_ERROR,
  ROW_EXCEPTION,
  ROW_ORPHAN,
  type ToWebview,
  type TraceMessage,
} from '../protocol';
import { drawDetails, drawLogs, el, ms } from './details';
import { keyAction } from './keys';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; setState(state: unknown): void };
const vscode = acquireVsCodeApi();

const ROW_HEIGHT = 22;
const viewport = document.getElementById('viewport') as HTMLElement;
const axis = document.getElementById('axis') as HTMLElement;
const details = document.getElementById('details') as HTMLElement;
const logList = document.getElementById('log-list') as HTMLElement;
const spacer = el('div');
viewport.append(spacer);

let trace: TraceMessage | undefined;
let colors: string[] = [];
const collapsed = new Set<number>();
/** Rows shown (their subtrees' ancestors expanded), in order. */
let visible: number[] = [];
let selected = -1;

function themeKind(): string {
  const c = document.body.classList;
  for (const k of ['vscode-high-contrast-light', 'vscode-high-contrast', 'vscode-light', 'vscode-dark']) {
    if (c.contains(k)) return k;
  }
  return 'vscode-dark';
}

function computeVisible(): void {
  visible = [];
  const rows = trace?.rows ?? [];
  for (let r = 0; r < rows.length; r++) {
    visible.push(r);
    if (collapsed.has(r)) r += rows[r]!.descendants;
  }
  spacer.style.height = `${visible.length * ROW_HEIGHT}px`;
  viewport.setAttribute('aria-rowcount', String(visible.length));
}

function drawAxis(): void {
  axis.replaceChildren();
  if (!trace) return;
  const nameWidth = viewport.clientWidth * 0.4;
  const lane = viewport.clientWidth - nameWidth;
  for (let i = 0; i <= 4; i++) {
    const s = el('span', ms((trace.durationMs * i) / 4));
    s.style.left = `${nameWidth + (lane * i) / 4}px`;
    s.style.transform = i === 0 ? 'none' : i === 4 ? 'translateX(-100%)' : 'translateX(-50%)';
    axis.append(s);
  }
}

function drawRow(r: number, index: number): HTMLElement {
  const t = trace!;
  const row = t.rows[r]!;
  const div = el('div', undefined, 'row');
  div.id = `row-${r}`;
  div.setAttribute('role', 'row');
  div.setAttribute('aria-level', String(row.depth + 1));
  div.setAttribute('aria-rowindex', String(index + 1));
  div.setAttribute('aria-selected', String(r === selected));
  if (row.descendants > 0) div.setAttribute('aria-expanded', String(!collapsed.has(r)));
  div.style.top = `${index * ROW_HEIGHT}px`;
  const name = el('div', undefined, 'name');
  name.setAttribute('role', 'gridcell');
  name.style.paddingLeft = `${Math.min(row.depth, 60) * 12}px`;
  const toggle = el('span', row.descendants > 0 ? (collapsed.has(r) ? '▸' : '▾') : '', 'toggle');
  toggle.addEventListener('click', (e) => {
    e.stopPropagation();
    setCollapsed(r, !collapsed.has(r));
  });
  // The marks come first, so a long name cut at the column's edge never hides them.
  name.append(toggle);
  if (row.flags & ROW_ERROR) name.append(el('span', 'error', 'mark err'));
  if (row.flags & ROW_ORPHAN) name.append(el('span', row.flags & ROW_CYCLE ? 'parent loop' : 'orphan', 'mark orphan'));
  if (row.flags & ROW_DUPLICATE) name.append(el('span', 'duplicate ID', 'mark orphan'));
  name.append(el('span', row.name || '(no name)'), el('span', t.services[row.service] ?? '', 'svc'));
  const lane = el('div', undefined, 'lane');
  lane.setAttribute('role', 'gridcell');
  const total = t.durationMs || 1;
  const left = (row.offsetMs / total) * 100;
  const width = (row.durationMs / total) * 100;
  const bar = el('div', undefined, row.flags & ROW_ERROR ? 'bar err' : 'bar');
  bar.style.left = `${left}%`;
  bar.style.width = `${width}%`;
  bar.style.background = colors[row.service] ?? 'var(--vscode-charts-blue)';
  const dur = el('span', `${ms(row.durationMs)} at +${ms(row.offsetMs)}`, 'dur');
  // Beside the bar where there is room: after it, else before it, else over its start.
  if (left + width <= 75) dur.style.left = `${left + width}%`;
  else if (left >= 25) dur.style.right = `${100 - left}%`;
  else {
    dur.style.left = `${left}%`;
    dur.classList.add('over');
  }
  lane.append(bar, dur);
  div.append(name, lane);
  div.addEventListener('click', () => select(r));
  return div;
}

let drawn = '';
function draw(force = false): void {
  if (!trace) return;
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_HEIGHT) - 10);
  const last = Math.min(visible.length, first + Math.ceil(viewport.clientHeight / ROW_HEIGHT) + 20);
  const key = `${first}:${last}:${selected}:${visible.length}`;
  if (!force && key === drawn) return;
  drawn = key;
  const rows: HTMLElement[] = [];
  for (let i = first; i < last; i++) rows.push(drawRow(visible[i]!, i));
  spacer.replaceChildren(...rows);
  viewport.setAttribute('aria-activedescendant', selected >= 0 ? `row-${selected}` : '');
}

function setCollapsed(r: number, value: boolean): void {
  if (value) collapsed.add(r);
  else collapsed.delete(r);
  computeVisible();
  draw(true);
}

/** Selects a row: its ancestors expand, it scrolls into view, and its details are asked for. */
function select(r: number): void {
  if (!trace || r < 0 || r >= trace.rows.length) return;
  for (let p = trace.rows[r]!.parent; p >= 0; p = trace.rows[p]!.parent) collapsed.delete(p);
  selected = r;
  computeVisible();
  const index = visible.indexOf(r);
  const top = index * ROW_HEIGHT;
  if (top < viewport.scrollTop) viewport.scrollTop = top;
  else if (top + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight) {
    viewport.scrollTop = top + ROW_HEIGHT - viewport.clientHeight;
  }
  draw(true);
  vscode.postMessage({ type: 'details', row: r });
}

viewport.addEventListener('scroll', () => draw());
window.addEventListener('resize', () => {
  drawAxis();
  draw(true);
});
viewport.addEventListener('keydown', (e) => {
  if (!trace) return;
  const page = Math.max(1, Math.floor(viewport.clientHeight / ROW_HEIGHT) - 1);
  const action = keyAction(e.key, trace.rows, visible, selected, collapsed, page);
  if (!action) return;
  if ('select' in action) select(action.select);
  else setCollapsed(action.collapse, action.value);
  e.preventDefault();
});

function show(t: TraceMessage): void {
  trace = t;
  collapsed.clear();
  selected = -1;
  const css = getComputedStyle(document.body);
  colors = seriesColors(t.services, themeKind(), (name) => css.getPropertyValue(name));
  (document.getElementById('title') as HTMLElement).textContent = t.title;
  (document.getElementById('meta') as HTMLElement).textContent =
    `${t.rows.length.toLocaleString()} spans · ${ms(t.durationMs)} · ${t.services.length} ${t.services.length === 1 ? 'service' : 'services'} (${t.services.join(', ')}) · ` +
    `${t.errors} with errors · ${t.orphans} orphans · started ${new Date(t.startMs).toISOString()}`;
  const notes = document.getElementById('notes') as HTMLElement;
  notes.replaceChildren(...t.notes.map((n) => el('div', n, 'note')));
  viewport.setAttribute('aria-label', `Spans of trace ${t.traceId}: name, service, start and duration`);
  computeVisible();
  drawAxis();
  draw(true);
  drawLogs(logList, t.logs, t.logsNote, select);
  details.replaceChildren(el('p', 'Select a span to see its attributes, resource and events.', 'empty'));
  // The span that threw first (its stack trace is what a failing trace is opened for), else the first failed one.
  const thrower = t.rows.findIndex((r) => r.flags & ROW_EXCEPTION);
  const firstError = t.rows.findIndex((r) => r.flags & ROW_ERROR);
  if (t.rows.length > 0) select(thrower >= 0 ? thrower : firstError >= 0 ? firstError : 0);
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as ToWebview;
  // Kept by VS Code with the panel: the trace opens again after a window reload.
  if ((m.type === 'trace' || m.type === 'loading') && m.restore) vscode.setState(m.restore);
  if (m.type === 'trace') show(m);
  else if (m.type === 'details' && m.row === selected) {
    drawDetails(details, m, (id) => vscode.postMessage({ type: 'openFrame', id }));
  } else if (m.type === 'select') select(m.row);
  else if (m.type === 'loading') {
    (document.getElementById('meta') as HTMLElement).textContent = `Reading trace ${m.traceId}…`;
  } else if (m.type === 'failed') (document.getElementById('meta') as HTMLElement).textContent = m.message;
});
vscode.postMessage({ type: 'ready' });
