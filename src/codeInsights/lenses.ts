/**
 * The CodeLens on every function or method of a workspace file that production spans name. Answers from the kept
 * aggregate and its per-folder file index; a folder without a pick gets no lens and causes no request.
 */
import * as vscode from 'vscode';
import type { Aggregates } from './aggregates';
import { figuresOnDefinitions, lensTitle, p95Approximate, type LensFigures } from './figures';
import type { Picks } from './picks';
import { definitionsOf } from './symbols';

export const SHOW_FIGURES = 'observability.codeInsights.showFigures';

export interface FiguresArg {
  figures: LensFigures;
  /** The document and the 0-based line of the definition's name (where the figures over time show). */
  uri: string;
  line: number;
  /** The pick the figures come from. */
  connectionId: string;
  serviceId: string;
  sourceId: string;
  /** Whether the p95 is an estimate (figures.ts). */
  p95Approx: boolean;
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
      const approx = p95Approximate(figures, entry.weighted === true);
      const title = lensTitle(figures, entry.rangeName, approx) + (plain ? ` ${vscode.l10n.t('(plain scan)')}` : '');
      const arg: FiguresArg = {
        figures,
        uri: doc.uri.toString(),
        line,
        connectionId: pick.connectionId,
        serviceId: pick.serviceId,
        sourceId: pick.sourceId,
        p95Approx: approx,
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
              'Production figures of {0} over time, with the slowest and failing examples (functions found by a plain scan: no language server answered)',
              figures.definition.name,
            )
          : vscode.l10n.t(
              'Production figures of {0} over time, with the slowest and failing examples',
              figures.definition.name,
            ),
        command: SHOW_FIGURES,
        arguments: [arg],
      });
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
