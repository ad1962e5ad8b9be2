import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import { parseUri } from '../jsonDocuments/uris';
import { isObject, str } from './context';

/** CodeLens on a dashboard document: Preview Dashboard at the top; Preview Tile and Show SQL on each tile. */
export function dashboardLenses(
  connections: ConnectionManager,
  lensChanged: vscode.EventEmitter<void>,
): vscode.CodeLensProvider {
  return {
    onDidChangeCodeLenses: lensChanged.event,
    provideCodeLenses(doc) {
      const ref = parseUri(doc.uri);
      if (!ref || ref.kind !== 'dashboard') return [];
      const text = doc.getText();
      const out: vscode.CodeLens[] = [];
      const top = new vscode.Range(0, 0, 0, 0);
      out.push(
        new vscode.CodeLens(top, {
          title: `$(graph) ${vscode.l10n.t('Preview Dashboard')}`,
          command: 'observability.previewDashboard',
          arguments: [{ uri: doc.uri.toString() }],
        }),
      );
      // Each tile object is found by its "id" key inside "tiles" (the document is formatted JSON).
      const tilesAt = text.indexOf('"tiles"');
      if (tilesAt < 0) return out;
      const re = /"id"\s*:\s*"([^"\\]{1,200})"/g;
      re.lastIndex = tilesAt;
      let parsed: Record<string, unknown> | undefined;
      try {
        const v: unknown = JSON.parse(text);
        parsed = isObject(v) ? v : undefined;
      } catch {
        parsed = undefined;
      }
      const tileIds = new Set(
        (Array.isArray(parsed?.tiles) ? parsed.tiles : [])
          .filter(isObject)
          .map((t) => str(t.id))
          .filter((x) => x),
      );
      // A self-hosted deployment runs no SQL from its API: no "Show SQL" there (its previews use the series API),
      // unless the connection has ClickHouse access for previews (they run SQL there).
      const connection = connections.get(ref.connectionId);
      const showSql = connection?.kind !== 'selfHosted' || connection.clickHouse !== undefined;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const id = m[1]!;
        if (!tileIds.has(id)) continue;
        tileIds.delete(id);
        const line = doc.positionAt(m.index).line;
        const range = new vscode.Range(line, 0, line, 0);
        out.push(
          new vscode.CodeLens(range, {
            title: `$(graph-line) ${vscode.l10n.t('Preview Tile')}`,
            command: 'observability.previewTile',
            arguments: [{ uri: doc.uri.toString(), tileId: id }],
          }),
        );
        if (showSql) {
          out.push(
            new vscode.CodeLens(range, {
              title: vscode.l10n.t('Show SQL'),
              command: 'observability.showTileSql',
              arguments: [{ uri: doc.uri.toString(), tileId: id }],
            }),
          );
        }
      }
      return out;
    },
  };
}
