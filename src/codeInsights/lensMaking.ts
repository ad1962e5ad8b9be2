/** The lenses of a document's definitions, made from the aggregate's rows of its file: titles, tooltips, arguments. */
import * as vscode from 'vscode';
import type { CodeFigures } from '../codeModel';
import type { AggregateEntry } from './aggregates';
import { figuresOnDefinitions, lensTitle, p95Approximate, type LensFigures } from './figures';
import type { Pick } from './picks';
import type { Definitions } from './symbols';

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

export /** A lens on each definition that rows name, with its figures. */
function makeLenses(
  doc: vscode.TextDocument,
  rows: readonly CodeFigures[],
  found: Definitions,
  entry: AggregateEntry,
  pick: Pick,
): vscode.CodeLens[] {
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
