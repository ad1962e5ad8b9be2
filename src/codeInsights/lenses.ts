/**
 * The CodeLens on every function or method of a workspace file that production spans name. Answers from the kept
 * aggregate and its per-folder file index; a folder without a pick gets no lens and causes no request.
 */
import * as vscode from 'vscode';
import type { Aggregates } from './aggregates';
import { figuresOnDefinitions, lensTitle, type LensFigures } from './figures';
import type { Picks } from './picks';
import { definitionsOf } from './symbols';

export const SHOW_FIGURES = 'observability.codeInsights.showFigures';

export interface FiguresArg {
  figures: LensFigures;
  range: string;
  /** The range's bounds the figures cover (epoch ms, `to` excluded). */
  bounds: { from: number; to: number };
  plain: boolean;
  serviceName: string;
  sourceName: string;
  quantileNote?: string | undefined;
}

export class CodeInsightLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly picks: Picks,
    private readonly aggregates: Aggregates,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!folder || doc.uri.scheme !== 'file') return [];
    const pick = this.picks.of(folder);
    if (!pick) return [];
    const entry = this.aggregates.ensure(pick);
    if (entry.state === 'pending') return [];
    if (entry.state === 'failed') return [];
    const files = await this.aggregates.filesOf(entry, folder);
    const rows = files.get(vscode.workspace.asRelativePath(doc.uri, false));
    if (!rows || rows.length === 0) return [];
    const { definitions, plain } = await definitionsOf(doc);
    return figuresOnDefinitions(rows, definitions).map((figures) => {
      const line = Math.max(0, Math.min(doc.lineCount - 1, figures.definition.nameLine - 1));
      const title = lensTitle(figures, entry.rangeName) + (plain ? ` ${vscode.l10n.t('(plain scan)')}` : '');
      const arg: FiguresArg = {
        figures,
        range: entry.rangeName,
        bounds: entry.range,
        plain,
        serviceName: pick.serviceName,
        sourceName: pick.sourceName,
        quantileNote: entry.quantileNote,
      };
      return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
        title,
        tooltip: plain
          ? vscode.l10n.t(
              'Production figures of {0} (functions found by a plain scan: no language server answered)',
              figures.definition.name,
            )
          : vscode.l10n.t('Production figures of {0}', figures.definition.name),
        command: SHOW_FIGURES,
        arguments: [arg],
      });
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The figures of a lens, as a quick pick of plain lines (each can be copied). Returns the lines shown. */
export async function showFigures(arg: FiguresArg, show = true): Promise<string[]> {
  const f = arg.figures;
  const rate = f.calls > 0 ? ((f.errors / f.calls) * 100).toFixed(2) : '0';
  const lines = [
    vscode.l10n.t('Calls: {0}', f.calls),
    vscode.l10n.t('Errors: {0} ({1}%)', f.errors, rate),
    vscode.l10n.t('p95 duration: {0} ms', f.p95Ms === null ? '–' : f.p95Ms.toFixed(1)),
    vscode.l10n.t('Range: last {0}', arg.range),
    vscode.l10n.t('Service: {0} · source: {1}', arg.serviceName, arg.sourceName),
    ...f.groups.map((g) => vscode.l10n.t('Spans name: {0} {1} in {2}', g.namespace, g.function, g.file)),
    ...(arg.quantileNote ? [arg.quantileNote] : []),
    ...(arg.plain ? [vscode.l10n.t('Functions found by a plain scan (no language server answered).')] : []),
  ];
  if (show) {
    await vscode.window.showQuickPick(
      lines.map((label) => ({ label })),
      { title: vscode.l10n.t('{0}: production figures', f.definition.name) },
    );
  }
  return lines;
}
