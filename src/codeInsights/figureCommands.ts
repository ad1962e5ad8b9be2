/**
 * The lens's command (Show Production Figures: the figures over time in a hover at the function, fetched on demand),
 * the hover provider that keeps them there, and `observability.codeInsights.figuresOverTime` for automation (the
 * same fetch, answered as data; `{ show: true }` also opens the hover).
 */
import * as vscode from 'vscode';
import type { Logger } from '../log';
import type { Aggregates } from './aggregates';
import { Details } from './details';
import { SHOW_FIGURES, type FiguresArg } from './lenses';
import { figureLines, OverTimeHovers } from './overTime';

export const FIGURES_OVER_TIME = 'observability.codeInsights.figuresOverTime';

export function registerFigureCommands(aggregates: Aggregates, log: Logger): vscode.Disposable[] {
  const hovers = new OverTimeHovers(new Details(aggregates.access, log));
  return [
    vscode.languages.registerHoverProvider({ scheme: 'file' }, hovers),
    aggregates.onDidChange(() => hovers.clear()),
    vscode.commands.registerCommand(SHOW_FIGURES, async (arg: FiguresArg, opts?: { show?: boolean }) => {
      if (opts?.show !== false) await hovers.show(arg, true);
      return figureLines(arg);
    }),
    vscode.commands.registerCommand(FIGURES_OVER_TIME, (arg: FiguresArg, opts?: { show?: boolean }) =>
      hovers.show(arg, opts?.show === true),
    ),
  ];
}
