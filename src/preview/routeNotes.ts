import * as vscode from 'vscode';

/** How a self-hosted connection's previews were read: SQL on its ClickHouse access, or the chart series API. */
export type SelfHostedRoute = 'clickhouse' | 'series';

/** The panel subtitle's words for the route a self-hosted preview took (none for the Cloud's query endpoint). */
export function routeLabel(route: SelfHostedRoute | undefined): string | undefined {
  if (route === 'clickhouse') return vscode.l10n.t('SQL on ClickHouse');
  if (route === 'series') return vscode.l10n.t('chart series API');
  return undefined;
}

/** A refusal of the series route, with what would draw it instead. */
export function withClickHouseHint(reason: string): string {
  return vscode.l10n.t(
    '{0} (ClickHouse access for previews would draw it: "Observability: Set ClickHouse Access for Previews…")',
    reason,
  );
}
