/**
 * A lens's click: its figures over time in a hover at the function (fetched on demand, details.ts): calls and errors
 * per bucket as text sparklines (the editor's font and colours, so every theme reads them), the slowest and the
 * failing spans, each a link opening its trace, and links searching those spans. The hover stays on the function's
 * line for the aggregate's range, so pointing at it again shows it without a request. Server text is escaped.
 */
import * as vscode from 'vscode';
import type { SpanExample } from '../codeModel';
import type { DetailOutcome, Details } from './details';
import { compact, duration, errorRate, rangeLabel, sparkline, stepLabel, utcMinute } from './format';
import type { FiguresArg } from './lenses';

const t = vscode.l10n.t;
const OPEN_TRACE = 'observability.openTrace';
const SEARCH = 'observability.searchEvents';
const KEPT = 50;

/** Markdown text shown as text: every character Markdown reads escaped, one line, at most `max` characters. */
function esc(text: string, max = 160): string {
  const one = text.replace(/\s+/g, ' ').trim();
  const cut = one.length > max ? `${one.slice(0, max - 1)}…` : one;
  return cut.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&');
}

function link(title: string, command: string, arg: unknown): string {
  return `[${title}](command:${command}?${encodeURIComponent(JSON.stringify([arg]))})`;
}

/** The figures as plain lines (each can be copied). */
export function figureLines(arg: FiguresArg): string[] {
  const f = arg.figures;
  const rate = f.calls > 0 ? ((f.errors / f.calls) * 100).toFixed(2) : '0';
  const p95 = f.p95Ms === null ? '–' : f.p95Ms.toFixed(1);
  return [
    t('Calls: {0}', f.calls),
    t('Errors: {0} ({1}%)', f.errors, rate),
    arg.p95Approx ? t('p95 duration (approx.): {0} ms', p95) : t('p95 duration: {0} ms', p95),
    t('Range: last {0}', arg.range),
    t('Service: {0} · source: {1}', arg.serviceName, arg.sourceName),
    ...f.groups.map((g) => t('Spans name: {0} {1} in {2}', g.namespace, g.function, g.file)),
    ...(arg.quantileNote ? [arg.quantileNote] : []),
    ...(arg.plain ? [t('Functions found by a plain scan (no language server answered).')] : []),
  ];
}

function example(arg: FiguresArg, e: SpanExample, first: 'duration' | 'time'): string {
  const open = { connectionId: arg.connectionId, serviceId: arg.serviceId, sourceId: arg.sourceId, traceId: e.traceId };
  const title = first === 'duration' ? duration(e.durationMs) : utcMinute(e.at);
  const rest = first === 'duration' ? utcMinute(e.at) : duration(e.durationMs);
  const message = e.message ? ` · ${esc(e.message)}` : '';
  return `- ${link(esc(title), OPEN_TRACE, open)} · ${esc(rest)}${e.failed ? ` · ${esc(e.status)}` : ''}${message}`;
}

/** The hover's Markdown (trusted for opening traces and searches only). */
export function overTimeMarkdown(arg: FiguresArg, outcome: DetailOutcome): vscode.MarkdownString {
  const f = arg.figures;
  const p95 = arg.p95Approx ? t('p95 (approx.)') : 'p95';
  const out: string[] = [
    `**${esc(f.definition.name)}** · ${t('last {0}', rangeLabel(arg.range))} · ${esc(arg.serviceName)} / ${esc(arg.sourceName)}`,
    '',
    `${compact(f.calls)} ${t('calls')} · ${errorRate(f.calls, f.errors)} ${t('errors')} · ${p95} ${duration(f.p95Ms)}`,
    '',
  ];
  const d = outcome.detail;
  if (!outcome.ok || !d) {
    out.push(t('The figures over time could not be fetched: {0}', esc(outcome.error ?? '', 400)));
  } else {
    const step = stepLabel(d.stepSeconds);
    const calls = d.buckets.map((b) => b.calls);
    const errors = d.buckets.map((b) => b.errors);
    out.push(
      `${t('Calls per {0}', step)}: \`${sparkline(calls)}\` (${t('max {0}', compact(Math.max(0, ...calls)))})  `,
      `${t('Errors per {0}', step)}: \`${sparkline(errors)}\` (${t('max {0}', compact(Math.max(0, ...errors)))})  `,
      `${esc(utcMinute(d.buckets[0]?.at ?? arg.bounds.from))} → ${esc(utcMinute(arg.bounds.to))}`,
      '',
      `**${t('Slowest')}**`,
      '',
      ...(d.slowest.length ? d.slowest.map((e) => example(arg, e, 'duration')) : [t('None in the range.')]),
      '',
      `**${t('Failing')}**`,
      '',
      ...(d.failing.length ? d.failing.map((e) => example(arg, e, 'time')) : [t('None in the range.')]),
      '',
    );
    if (outcome.search) {
      out.push(
        `${link(t('Search these spans'), SEARCH, outcome.search.all)} · ${link(t('Search the failing spans'), SEARCH, outcome.search.failing)}`,
        '',
      );
    }
  }
  if (arg.quantileNote) out.push(`_${esc(arg.quantileNote, 400)}_`);
  if (arg.plain) out.push('', `_${t('Functions found by a plain scan (no language server answered).')}_`);
  const md = new vscode.MarkdownString(out.join('\n'));
  md.isTrusted = { enabledCommands: [OPEN_TRACE, SEARCH] };
  md.supportHtml = false;
  return md;
}

/** The hovers shown so far, by document and line; the provider answers only there. */
export class OverTimeHovers implements vscode.HoverProvider {
  private readonly shown = new Map<string, vscode.MarkdownString>();

  constructor(private readonly details: Details) {}

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const md = this.shown.get(`${doc.uri.toString()}#${pos.line}`);
    return md ? new vscode.Hover(md, doc.lineAt(pos.line).range) : undefined;
  }

  /** Fetches (or reuses) the lens's figures over time and, with `show`, opens the hover at the function. */
  async show(arg: FiguresArg, show: boolean): Promise<DetailOutcome & { markdown: string }> {
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: t('Fetching the figures of {0}…', arg.figures.definition.name),
      },
      () => this.details.of(arg),
    );
    const md = overTimeMarkdown(arg, outcome);
    const key = `${arg.uri}#${arg.line}`;
    this.shown.delete(key);
    this.shown.set(key, md);
    for (const k of this.shown.keys()) {
      if (this.shown.size <= KEPT) break;
      this.shown.delete(k);
    }
    if (show) {
      const editor = await vscode.window.showTextDocument(vscode.Uri.parse(arg.uri), { preview: false });
      const line = Math.min(arg.line, editor.document.lineCount - 1);
      const name = arg.figures.definition.name.split(/[.:#]/).pop() ?? '';
      const col = Math.max(0, editor.document.lineAt(line).text.indexOf(name));
      editor.selection = new vscode.Selection(line, col, line, col);
      editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      await vscode.commands.executeCommand('editor.action.showHover');
    }
    return { ...outcome, markdown: md.value };
  }

  /** Forgets the hovers (the aggregate they belong to was fetched again). */
  clear(): void {
    this.shown.clear();
  }
}
