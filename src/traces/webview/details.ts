/** A span's details and the trace's logs, drawn as text (never markup of the service's data). */
import type { FrameLink, SpanDetails, TraceLogRow } from '../protocol';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  cls?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

export function ms(v: number): string {
  if (v >= 1000) return `${(v / 1000).toFixed(v >= 10_000 ? 1 : 2)} s`;
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(v >= 1 ? 1 : 3)} ms`;
}

function table(pairs: readonly [string, string][]): HTMLElement {
  if (pairs.length === 0) return el('p', 'None.', 'empty');
  const t = el('table');
  for (const [k, v] of pairs) {
    const tr = el('tr');
    tr.append(el('td', k));
    const td = el('td');
    if (v.includes('\n')) td.append(el('pre', v));
    else td.textContent = v;
    tr.append(td);
    t.append(tr);
  }
  return t;
}

/** A stack trace as text, its lines that open a workspace file as buttons (the line's text, never markup). */
export function stackTrace(text: string, links: readonly FrameLink[], open: (id: number) => void): HTMLElement {
  const pre = el('pre', links.length === 0 ? text : undefined);
  if (links.length === 0) return pre;
  const byIndex = new Map(links.map((l) => [l.index, l]));
  text.split(/\r?\n/).forEach((line, i) => {
    if (i > 0) pre.append('\n');
    const link = byIndex.get(i);
    if (!link) return pre.append(line);
    const b = el('button', line, 'frame');
    b.type = 'button';
    b.title = link.title;
    b.addEventListener('click', () => open(link.id));
    pre.append(b);
  });
  return pre;
}

export function drawDetails(box: HTMLElement, d: SpanDetails, openFrame: (id: number) => void = () => undefined): void {
  box.replaceChildren();
  box.append(el('h2', d.name || '(no name)'));
  box.append(
    table([
      ['Service', d.service],
      ['Span ID', d.spanId],
      ['Parent span ID', d.parentSpanId || '(none: a root span)'],
      ['Kind', d.kind],
      ['Start', `+${ms(d.offsetMs)}`],
      ['Duration', ms(d.durationMs)],
      ['Status', [d.statusCode, d.statusMessage].filter(Boolean).join(': ')],
    ]),
  );
  box.append(el('h2', `Events (${d.events.length})`));
  for (const e of d.events) {
    const stack = e.attributes.find(([k]) => k === 'exception.stacktrace');
    box.append(el('p', `${e.name} at +${ms(e.offsetMs)}`, e.name === 'exception' ? 'note' : undefined));
    box.append(table(e.attributes.filter(([k]) => k !== 'exception.stacktrace')));
    if (stack) box.append(stackTrace(stack[1], e.links ?? [], openFrame));
  }
  box.append(el('h2', `Attributes (${d.attributes.length})`), table(d.attributes));
  box.append(el('h2', `Resource (${d.resource.length})`), table(d.resource));
}

export function drawLogs(
  box: HTMLElement,
  logs: readonly TraceLogRow[],
  note: string | undefined,
  select: (row: number) => void,
): void {
  box.replaceChildren();
  if (note) box.append(el('p', note, 'empty'));
  else if (logs.length === 0) box.append(el('p', 'No log lines carry this trace ID.', 'empty'));
  const list = el('ol');
  for (const l of logs) {
    const li = el('li');
    const b = el('button');
    b.type = 'button';
    b.append(el('span', l.severity, 'sev'), ` +${ms(l.offsetMs)} ${l.service}: ${l.body.replace(/\s+/g, ' ')}`);
    b.title = l.row >= 0 ? 'Select the span of this log line' : 'This log line names no span of the trace';
    b.disabled = l.row < 0;
    b.addEventListener('click', () => select(l.row));
    li.append(b);
    list.append(li);
  }
  box.append(list);
}
