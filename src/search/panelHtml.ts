/** The search panel's page: strict CSP with a nonce, its script from dist/, theme colours only, no remote content. */
import * as vscode from 'vscode';
import { SEARCH_VIEW_TYPE } from '../constants';
import { panelColumn } from '../panels/panelColumn';
import { makeNonce, webviewPage } from '../panels/webviewPage';

export { makeNonce } from '../panels/webviewPage';

const STYLE = `  body { display: flex; flex-direction: column; height: 100vh; overflow: hidden; padding: 0; margin: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  form { flex: none; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 6px 8px; border-bottom: 1px solid var(--vscode-panel-border); }
  input, select { color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); font: inherit; padding: 2px 4px; }
  #condition { flex: 1 1 30ch; font-family: var(--vscode-editor-font-family); }
  button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, transparent); padding: 2px 8px; cursor: pointer; font: inherit; }
  button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
  button:focus-visible, input:focus-visible, select:focus-visible, [tabindex]:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  #status { padding: 2px 8px; color: var(--vscode-descriptionForeground); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  #status.error { color: var(--vscode-errorForeground); white-space: pre-wrap; }
  #histogram { flex: none; max-height: 35vh; overflow: auto; padding: 4px 8px; }
  #histogram svg { display: block; width: 100%; height: 90px; cursor: crosshair; }
  #histogram svg text { fill: var(--vscode-descriptionForeground); font-size: 10px; }
  #histogram .brush { fill: var(--vscode-editor-selectionBackground); opacity: 0.5; }
  .legend { display: flex; flex-wrap: wrap; gap: 10px; font-size: 11px; }
  .legend span::before { content: ''; display: inline-block; width: 9px; height: 9px; margin-right: 4px; background: var(--swatch); }
  table.data { border-collapse: collapse; margin: 4px 0; font-size: 11px; }
  table.data th, table.data td { border: 1px solid var(--vscode-panel-border); padding: 1px 6px; text-align: left; }
  #main { flex: 1 1 auto; display: flex; min-height: 0; }
  #viewport { flex: 1 1 auto; position: relative; overflow: auto; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
  .hdr { position: sticky; top: 0; z-index: 1; display: flex; background: var(--vscode-editorWidget-background); border-bottom: 1px solid var(--vscode-panel-border); }
  .hdr div, .row div { box-sizing: border-box; flex: 0 0 auto; width: 220px; padding: 0 6px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
  .hdr div:last-child, .row div:last-child { flex: 1 0 400px; }
  .row { position: absolute; left: 0; right: 0; display: flex; height: 22px; line-height: 22px; cursor: pointer; }
  .row:hover, .row.selected { background: var(--vscode-list-hoverBackground); }
  .row a { color: var(--vscode-textLink-foreground); }
  #details { flex: 0 0 40%; overflow: auto; border-left: 1px solid var(--vscode-panel-border); padding: 4px 8px; }
  #details .field { border-bottom: 1px solid var(--vscode-panel-border); padding: 3px 0; }
  #details .name { font-weight: 600; word-break: break-all; }
  #details .value button.frame { all: unset; color: var(--vscode-textLink-foreground); text-decoration: underline; cursor: pointer; }
  #details .value button.frame:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  #details .value { font-family: var(--vscode-editor-font-family); white-space: pre-wrap; word-break: break-all; max-height: 20em; overflow: auto; }
  #details button { padding: 0 4px; margin-right: 4px; font-size: 11px; }
  #tabs { flex: none; display: flex; gap: 2px; padding: 0 8px; border-bottom: 1px solid var(--vscode-panel-border); }
  #tabs button { color: var(--vscode-foreground); background: none; border: none; border-bottom: 2px solid transparent; }
  #tabs button[aria-selected="true"] { border-bottom-color: var(--vscode-focusBorder); }
  #patterns { flex: 1 1 auto; overflow: auto; padding: 4px 8px; }
  #patterns td:nth-child(3), #patterns td:nth-child(4) { font-family: var(--vscode-editor-font-family); white-space: pre-wrap; word-break: break-all; }
  .note { color: var(--vscode-descriptionForeground); }
  .note.error { color: var(--vscode-errorForeground); white-space: pre-wrap; }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  [hidden] { display: none !important; }
`;

const BODY = `<form id="form">
  <select id="language" aria-label="Condition language"><option value="lucene">Lucene</option><option value="sql">SQL</option></select>
  <input id="condition" list="fields" aria-label="Search condition" placeholder="Search condition, e.g. SeverityText:error" autocomplete="off">
  <datalist id="fields"></datalist>
  <select id="preset" aria-label="Time range">
    <option value="15m">Last 15 minutes</option><option value="1h">Last hour</option><option value="6h">Last 6 hours</option>
    <option value="24h">Last 24 hours</option><option value="7d">Last 7 days</option><option value="">Custom</option>
  </select>
  <input id="from" type="datetime-local" step="1" aria-label="From" hidden>
  <input id="to" type="datetime-local" step="1" aria-label="To" hidden>
  <button id="run" type="submit">Search</button>
  <label><input id="tail" type="checkbox"> Live tail</label>
  <button id="toggle-table" type="button" class="secondary" aria-pressed="false">Histogram as table</button>
  <button id="save-as" type="button" class="secondary" title="Open a new saved search with this source, condition, columns and order (sent on Apply)">Save as Saved Search…</button>
</form>
<div id="status" role="status" aria-live="polite"></div>
<div id="histogram"></div>
<div id="tabs" role="tablist"><button id="tab-events" type="button" role="tab" aria-selected="true">Events</button><button id="tab-patterns" type="button" role="tab" aria-selected="false">Patterns</button></div>
<div id="patterns" role="tabpanel" aria-label="Event patterns" hidden></div>
<div id="main">
  <div id="viewport" tabindex="0" role="grid" aria-label="Events"></div>
  <div id="details" role="region" aria-label="Event details" hidden></div>
</div>
`;

export function html(cspSource: string, nonce: string, scriptUri: string): string {
  return webviewPage({ cspSource, nonce, title: 'Search', style: STYLE, body: BODY, scriptUri });
}

/** A search panel's webview, its page set (scripts from dist/ only): a new one, or one VS Code restored after a reload. */
export function searchWebview(
  extensionUri: vscode.Uri,
  title: string,
  restored?: vscode.WebviewPanel,
): vscode.WebviewPanel {
  const media = vscode.Uri.joinPath(extensionUri, 'dist');
  const panel =
    restored ??
    vscode.window.createWebviewPanel(
      SEARCH_VIEW_TYPE,
      vscode.l10n.t('Search: {0}', title),
      { viewColumn: panelColumn(), preserveFocus: false },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [media] },
    );
  if (restored) {
    panel.title = vscode.l10n.t('Search: {0}', title);
    panel.webview.options = { enableScripts: true, localResourceRoots: [media] };
  }
  const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'search.js')).toString();
  panel.webview.html = html(panel.webview.cspSource, makeNonce(), script);
  return panel;
}
