/**
 * Production exceptions at the lines that threw them: a quiet after-line text (`ValueError ×44 · 24 h`, in the
 * CodeLens colour) on each line that is the top in-workspace frame of recent exceptions, a hover with each exception's
 * type and message, count (span events and logs), first and last seen and a link to an example trace, and, when
 * `observability.codeInsights.problems` is on, an Information entry in Problems per line. Everything answers from the
 * kept exceptions of the folder's pick (signals.ts); nothing here sends a request.
 */
import * as vscode from 'vscode';
import type { ExceptionSite } from '../codeModel';
import { frameMarkdownLink, OPEN_FRAME } from '../panels/frameCommand';
import { workspaceFrames, type WorkspaceFrame } from '../panels/frameLinks';
import { compact, rangeLabel } from './format';
import type { Picks } from './picks';
import type { SignalEntry, Signals } from './signals';

const MAX_TYPE_SHOWN = 60;
const MAX_MESSAGE_SHOWN = 300;
const MAX_GROUPS_SHOWN = 5;
const MAX_FRAMES_SHOWN = 6;

function problemsOn(): boolean {
  return vscode.workspace.getConfiguration('observability.codeInsights').get<boolean>('problems', false) === true;
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** `ValueError ×44 · 24 h` (`+1` when other exceptions share the line). */
export function markText(site: ExceptionSite, range: string): string {
  const top = site.groups[0];
  const name = cut(top?.type || vscode.l10n.t('exception'), MAX_TYPE_SHOWN);
  const more = site.groups.length > 1 ? ` +${site.groups.length - 1}` : '';
  return `${name}${more} ×${compact(site.count)} · ${rangeLabel(range)}`;
}

/**
 * The hover of a marked line (server text is added as plain text, never as markup). `frames`, by group, are the
 * in-workspace frames of each group's stack trace: each is a link opening the file at the frame's line.
 */
export function siteHover(
  site: ExceptionSite,
  entry: SignalEntry,
  frames: readonly (readonly WorkspaceFrame[])[] = [],
): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: ['observability.openTrace', OPEN_FRAME] };
  md.appendMarkdown(
    `**${vscode.l10n.t('Production exceptions thrown here')}** · ${vscode.l10n.t('last {0}', rangeLabel(entry.rangeName))}\n\n`,
  );
  md.appendText(
    vscode.l10n.t(
      '{0} in all: {1} span events, {2} logs; first seen {3}, last seen {4}',
      site.count,
      site.spanCount,
      site.logCount,
      when(site.first),
      when(site.last),
    ),
  );
  md.appendMarkdown('\n\n');
  for (const [i, g] of site.groups.slice(0, MAX_GROUPS_SHOWN).entries()) {
    md.appendMarkdown('- ');
    md.appendText(`${cut(g.type || vscode.l10n.t('exception'), MAX_TYPE_SHOWN)}: ${cut(g.message, MAX_MESSAGE_SHOWN)}`);
    md.appendMarkdown(' — ');
    md.appendText(
      vscode.l10n.t(
        '{0} ({1}), first seen {2}, last seen {3}',
        g.count,
        g.origin === 'log' ? vscode.l10n.t('logs') : vscode.l10n.t('span events'),
        when(g.first),
        when(g.last),
      ),
    );
    if (g.traceId) {
      const { connectionId, serviceId, sourceId } = entry.pick;
      const args = encodeURIComponent(JSON.stringify([{ connectionId, serviceId, sourceId, traceId: g.traceId }]));
      md.appendMarkdown(` · [${vscode.l10n.t('Open example trace')}](command:observability.openTrace?${args})`);
    }
    const shown = frames[i]?.slice(0, MAX_FRAMES_SHOWN) ?? [];
    if (shown.length > 0) {
      md.appendMarkdown(
        `  \n  ${vscode.l10n.t('Stack in the workspace:')} ${shown.map(frameMarkdownLink).join(' → ')}`,
      );
    }
    md.appendMarkdown('\n');
  }
  if (site.groups.length > MAX_GROUPS_SHOWN) {
    md.appendText(vscode.l10n.t('and {0} more', site.groups.length - MAX_GROUPS_SHOWN));
  }
  const cutGroups = entry.exceptions?.cut ?? 0;
  if (cutGroups > 0) {
    md.appendMarkdown('\n\n');
    md.appendText(
      vscode.l10n.t(
        'Only the {0} most frequent exception groups were read ({1} more groups, {2} occurrences, left out).',
        entry.exceptions?.groups.length ?? 0,
        cutGroups,
        entry.exceptions?.cutCount ?? 0,
      ),
    );
  }
  return md;
}

export class ExceptionMarks implements vscode.HoverProvider, vscode.Disposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), margin: '0 0 0 2em', fontStyle: 'italic' },
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.infoForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  private readonly problems = vscode.languages.createDiagnosticCollection('observability-exceptions');

  constructor(
    private readonly picks: Picks,
    private readonly signals: Signals,
  ) {}

  /** The kept entry and sites of a document's folder (the entry is fetched when none is kept). */
  private async sitesFor(
    doc: vscode.TextDocument,
  ): Promise<{ entry: SignalEntry; sites: ExceptionSite[] } | undefined> {
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!folder || doc.uri.scheme !== 'file') return undefined;
    const pick = this.picks.of(folder);
    if (!pick) return undefined;
    const entry = this.signals.ensure(pick);
    if (entry.state !== 'done') return undefined;
    const sites = (await this.signals.sitesOf(entry, folder)).get(vscode.workspace.asRelativePath(doc.uri, false));
    return sites ? { entry, sites } : undefined;
  }

  async provideHover(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const found = await this.sitesFor(doc);
    const site = found?.sites.find((s) => s.line === position.line + 1);
    if (!found || !site) return undefined;
    const groups = site.groups.slice(0, MAX_GROUPS_SHOWN);
    const frames = await Promise.all(groups.map((g) => workspaceFrames(g.stacktrace).catch(() => [])));
    return new vscode.Hover(siteHover(site, found.entry, frames), doc.lineAt(position.line).range);
  }

  /** Draws the marks on the visible editors and, when asked for, the Problems entries. */
  async refresh(): Promise<void> {
    for (const editor of vscode.window.visibleTextEditors) {
      const found = await this.sitesFor(editor.document);
      const doc = editor.document;
      editor.setDecorations(
        this.decoration,
        (found?.sites ?? [])
          .filter((s) => s.line <= doc.lineCount)
          .map((s) => {
            const end = doc.lineAt(s.line - 1).range.end;
            return {
              range: new vscode.Range(end, end),
              renderOptions: { after: { contentText: markText(s, found!.entry.rangeName) } },
            };
          }),
      );
    }
    await this.refreshProblems();
  }

  private async refreshProblems(): Promise<void> {
    this.problems.clear();
    if (!problemsOn()) return;
    for (const { folder, pick } of this.picks.entries()) {
      const entry = this.signals.peek(pick);
      if (!entry || entry.state !== 'done') continue;
      for (const [rel, sites] of await this.signals.sitesOf(entry, folder)) {
        const diagnostics = sites.map((s) => {
          const line = Math.max(0, s.line - 1);
          const d = new vscode.Diagnostic(
            new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
            vscode.l10n.t(
              '{0} thrown here {1} times in production in the last {2}: {3}',
              s.groups[0]?.type || vscode.l10n.t('An exception'),
              s.count,
              rangeLabel(entry.rangeName),
              cut(s.groups[0]?.message ?? '', MAX_MESSAGE_SHOWN),
            ),
            vscode.DiagnosticSeverity.Information,
          );
          d.source = vscode.l10n.t('Observability');
          return d;
        });
        this.problems.set(vscode.Uri.joinPath(folder.uri, rel), diagnostics);
      }
    }
  }

  dispose(): void {
    this.decoration.dispose();
    this.problems.dispose();
  }
}
