/**
 * The CodeLens on every function or method of a workspace file that production spans name. Answers from the kept
 * aggregate and its per-folder file index; a folder without a pick gets no lens and causes no request.
 */
import * as vscode from 'vscode';
import type { Aggregates } from './aggregates';
import { figuresOnDefinitions, lensTitle, p95Approximate, type LensFigures } from './figures';
import type { Picks } from './picks';
import { definitionsSoon } from './symbols';

export const SHOW_FIGURES = 'observability.codeInsights.showFigures';
/** How long the lenses wait for the symbol provider before drawing from the plain scan (replaced when it answers). */
const SYMBOL_WAIT_MS = 50;

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

/** Says where the functions were found: the symbol provider, the plain scan meanwhile, or the plain scan alone. */
function tooltipOf(name: string, plain: boolean, interim: boolean): string {
  if (interim) {
    return vscode.l10n.t(
      'Production figures of {0} over time, with the slowest and failing examples (functions found by a plain scan until the language server answers)',
      name,
    );
  }
  if (plain) {
    return vscode.l10n.t(
      'Production figures of {0} over time, with the slowest and failing examples (functions found by a plain scan: no language server answered)',
      name,
    );
  }
  return vscode.l10n.t('Production figures of {0} over time, with the slowest and failing examples', name);
}

export class CodeInsightLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Symbol answers awaited for lenses drawn from the plain scan meanwhile. */
  private readonly awaited = new Set<Promise<unknown>>();
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
    const found = await definitionsSoon(doc, SYMBOL_WAIT_MS);
    const later = found.later;
    if (later && !this.awaited.has(later)) {
      this.awaited.add(later);
      void later.then(() => {
        this.awaited.delete(later);
        this.changed.fire();
      });
    }
    const { definitions, plain, interim } = found;
    return figuresOnDefinitions(rows, definitions).map((figures) => {
      const line = Math.max(0, Math.min(doc.lineCount - 1, figures.definition.nameLine - 1));
      const approx = p95Approximate(figures, entry.weighted === true);
      const note = plain && !interim ? ` ${vscode.l10n.t('(plain scan)')}` : '';
      const title = lensTitle(figures, entry.rangeName, approx) + note;
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
        plain: plain && !interim,
        serviceName: pick.serviceName,
        sourceName: pick.sourceName,
        quantileNote: entry.quantileNote,
      };
      return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
        title,
        tooltip: tooltipOf(figures.definition.name, plain, interim === true),
        command: SHOW_FIGURES,
        arguments: [arg],
      });
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
