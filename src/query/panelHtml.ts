/** The query results panel's page: strict CSP with a nonce, its script from dist/, theme colours only. */
import * as vscode from 'vscode';
import { panelColumn } from '../panels/panelColumn';
import { makeNonce, webviewPage } from '../panels/webviewPage';

export { makeNonce } from '../panels/webviewPage';

const STYLE = `  body { display: flex; flex-direction: column; height: 100vh; overflow: hidden; padding: 0; margin: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  header { flex: none; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 6px 8px; border-bottom: 1px solid var(--vscode-panel-border); }
  .meta { flex: 1 1 auto; color: var(--vscode-descriptionForeground); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .meta .warn { color: var(--vscode-editorWarning-foreground); }
  button { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: 1px solid var(--vscode-button-border, transparent); padding: 2px 8px; cursor: pointer; font: inherit; white-space: nowrap; }
  select { color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border: 1px solid var(--vscode-dropdown-border, transparent); font: inherit; max-width: 40ch; }
  button:hover { background: var(--vscode-button-secondaryHoverBackground); }
  button:focus-visible, [tabindex]:focus-visible, [role=tab]:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  [role=tablist] { display: flex; gap: 2px; }
  [role=tab] { background: transparent; border: none; border-bottom: 2px solid transparent; color: var(--vscode-foreground); }
  [role=tab][aria-selected=true] { border-bottom-color: var(--vscode-focusBorder); }
  #viewport { flex: 1 1 auto; position: relative; overflow: auto; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
  .hdr { position: sticky; top: 0; z-index: 1; display: flex; background: var(--vscode-editorWidget-background); border-bottom: 1px solid var(--vscode-panel-border); }
  .hdr div { box-sizing: border-box; padding: 2px 6px; font-weight: 600; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
  .hdr small { display: block; font-weight: normal; color: var(--vscode-descriptionForeground); }
  .row { position: absolute; left: 0; display: flex; height: 22px; line-height: 22px; }
  .row:nth-child(even) { background: var(--vscode-list-hoverBackground); }
  .row div { box-sizing: border-box; padding: 0 6px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
  .num { text-align: right; }
  a.link { color: var(--vscode-textLink-foreground); }
  a.frame { color: var(--vscode-textLink-foreground); }
  .null { color: var(--vscode-descriptionForeground); font-style: italic; }
  #chart { flex: 1 1 auto; overflow: auto; padding: 8px; box-sizing: border-box; }
  #chart svg text { fill: var(--vscode-descriptionForeground); font-size: 11px; }
  #chart .axis { stroke: var(--vscode-panel-border); }
  .legend { display: flex; flex-wrap: wrap; gap: 12px; margin: 6px 0; }
  .legend span::before { content: ''; display: inline-block; width: 10px; height: 10px; margin-right: 4px; background: currentColor; }
  .readout { display: flex; flex-wrap: wrap; gap: 2px 12px; min-height: 1.4em; margin: 4px 0; color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
  .readout strong { color: var(--vscode-foreground); }
  .readout .item::before { content: ''; display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; background: var(--swatch); }
  #chart svg .cursor { stroke: var(--vscode-descriptionForeground); stroke-dasharray: 3 3; }
  #chart svg:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  table.data { border-collapse: collapse; margin-top: 8px; }
  table.data th, table.data td { border: 1px solid var(--vscode-panel-border); padding: 2px 6px; text-align: left; }
  .empty { padding: 16px; color: var(--vscode-descriptionForeground); }
  [hidden] { display: none !important; }
`;

const BODY = `<header>
  <div role="tablist" aria-label="View">
    <button role="tab" id="tab-table" aria-selected="true" aria-controls="viewport">Table</button>
    <button role="tab" id="tab-chart" aria-selected="false" aria-controls="chart" hidden>Chart</button>
  </div>
  <select id="statement" hidden></select>
  <div class="meta" id="meta" role="status" aria-live="polite"></div>
  <button id="copy-csv">Copy CSV</button>
  <button id="copy-json">Copy JSON</button>
  <button id="copy-md">Copy Markdown</button>
  <button id="open-json">Open as JSON</button>
</header>
<div id="viewport" tabindex="0" role="grid" aria-label="Query results"></div>
<div id="chart" role="tabpanel" aria-labelledby="tab-chart" hidden></div>
`;

export function html(cspSource: string, nonce: string, scriptUri: string): string {
  return webviewPage({ cspSource, nonce, title: 'Query Results', style: STYLE, body: BODY, scriptUri });
}

/** The results panel beside the editor with its page; its script (dist/queryResults.js) is all it loads from disk. */
export function createResultsWebview(extensionUri: vscode.Uri): vscode.WebviewPanel {
  const media = vscode.Uri.joinPath(extensionUri, 'dist');
  const panel = vscode.window.createWebviewPanel(
    'observability.queryResults',
    vscode.l10n.t('Query Results'),
    { viewColumn: panelColumn(), preserveFocus: true },
    { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [media] },
  );
  const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'queryResults.js')).toString();
  panel.webview.html = html(panel.webview.cspSource, makeNonce(), script);
  return panel;
}
