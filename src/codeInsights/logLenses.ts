/**
 * A CodeLens on each logger call with a literal message: how many logs of the pick's log source it wrote over the
 * range (`124 logs · 24 h`), matched by the literal's fixed parts against the log bodies; the lens opens the search of
 * those logs. The counts come from the one statement of signals.ts (the calls of the whole folder); a call added since
 * (not yet counted) gets no lens until the next refresh.
 */
import * as vscode from 'vscode';
import { sqlString } from '../api/query/sqlText';
import { findLogLiterals } from '../codeModel';
import { compact, rangeLabel } from './format';
import type { Picks } from './picks';
import type { Signals } from './signals';

export class LogLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly picks: Picks,
    private readonly signals: Signals,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!folder || doc.uri.scheme !== 'file') return [];
    const pick = this.picks.of(folder);
    if (!pick) return [];
    const entry = this.signals.ensure(pick);
    const counts = entry.logCounts;
    const source = entry.logSource;
    if (entry.state !== 'done' || !counts || !source) return [];
    const range = rangeLabel(entry.rangeName);
    const lenses: vscode.CodeLens[] = [];
    for (const literal of findLogLiterals(doc.getText()).literals) {
      const n = literal.like !== undefined ? counts.get(literal.like) : undefined;
      if (n === undefined || literal.like === undefined) continue;
      const line = Math.min(doc.lineCount - 1, literal.line - 1);
      const search = {
        connectionId: pick.connectionId,
        serviceId: pick.serviceId,
        sourceId: source.id,
        condition: `${source.body} LIKE ${sqlString(literal.like)}`,
        language: 'sql',
        range: { from: entry.range.from, to: entry.range.to },
      };
      lenses.push(
        new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title: vscode.l10n.t('{0} logs · {1}', compact(n), range),
          tooltip: vscode.l10n.t(
            '{0} logs of {1} matched {2} in the last {3}. Click to search them.',
            n,
            source.name,
            literal.parts.join('…'),
            range,
          ),
          command: 'observability.searchEvents',
          arguments: [search],
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
