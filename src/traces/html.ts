/** The trace panel's page: strict CSP with a nonce, theme colours, the script from dist/ (no remote content). */
import { webviewPage } from '../panels/webviewPage';

const STYLE = `  body { display: flex; flex-direction: column; height: 100vh; overflow: hidden; padding: 0; margin: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  header { flex: none; padding: 6px 8px; border-bottom: 1px solid var(--vscode-panel-border); }
  header h1 { font-size: 1.1em; margin: 0 0 2px; font-weight: 600; }
  .meta, .note { color: var(--vscode-descriptionForeground); }
  .note { color: var(--vscode-editorWarning-foreground); }
  main { flex: 1 1 auto; display: flex; min-height: 0; }
  #waterfall { flex: 3 1 0; display: flex; flex-direction: column; min-width: 0; border-right: 1px solid var(--vscode-panel-border); }
  .axis { flex: none; position: relative; height: 20px; border-bottom: 1px solid var(--vscode-panel-border); font-size: 11px; color: var(--vscode-descriptionForeground); }
  .axis span { position: absolute; top: 3px; white-space: nowrap; padding: 0 2px; }
  #viewport { flex: 1 1 auto; position: relative; overflow: auto; outline: none; }
  #viewport:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  .row { position: absolute; left: 0; right: 0; display: flex; height: 22px; line-height: 22px; cursor: default; white-space: nowrap; }
  .row:hover { background: var(--vscode-list-hoverBackground); }
  .row[aria-selected=true] { background: var(--vscode-list-activeSelectionBackground); color: var(--vscode-list-activeSelectionForeground); }
  .name { flex: 0 0 40%; overflow: hidden; text-overflow: ellipsis; padding-right: 6px; box-sizing: border-box; }
  .toggle { display: inline-block; width: 14px; text-align: center; color: var(--vscode-descriptionForeground); }
  .svc { color: var(--vscode-descriptionForeground); margin-left: 6px; }
  .mark { margin-right: 6px; padding: 0 4px; border-radius: 3px; font-size: 11px; border: 1px solid currentColor; }
  .mark.err { color: var(--vscode-errorForeground); }
  .mark.orphan { color: var(--vscode-editorWarning-foreground); }
  .lane { flex: 1 1 auto; position: relative; }
  .bar { position: absolute; top: 5px; height: 12px; min-width: 2px; border-radius: 2px; }
  .bar.err { outline: 2px solid var(--vscode-errorForeground); }
  .dur { position: absolute; top: 0; font-size: 11px; color: var(--vscode-descriptionForeground); padding: 0 4px; }
  .dur.over { color: var(--vscode-editor-background); font-weight: 600; }
  #side { flex: 2 1 0; display: flex; flex-direction: column; min-width: 0; }
  #details { flex: 1 1 60%; overflow: auto; padding: 6px 8px; }
  #details h2, #logs h2 { font-size: 1em; margin: 6px 0 4px; }
  #details table { border-collapse: collapse; width: 100%; }
  #details td { border-bottom: 1px solid var(--vscode-panel-border); padding: 1px 4px; vertical-align: top; word-break: break-all; }
  #details td:first-child { color: var(--vscode-descriptionForeground); white-space: nowrap; word-break: normal; }
  pre button.frame { all: unset; color: var(--vscode-textLink-foreground); text-decoration: underline; cursor: pointer; }
  pre button.frame:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  pre { white-space: pre-wrap; word-break: break-all; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); background: var(--vscode-textCodeBlock-background); padding: 4px; margin: 2px 0; }
  #logs { flex: 1 1 40%; overflow: auto; padding: 6px 8px; border-top: 1px solid var(--vscode-panel-border); }
  #logs ol { list-style: none; margin: 0; padding: 0; }
  #logs button { display: block; width: 100%; text-align: left; background: transparent; color: var(--vscode-foreground); border: none; padding: 1px 2px; font: inherit; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  #logs button:hover { background: var(--vscode-list-hoverBackground); }
  #logs button:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  .sev { display: inline-block; min-width: 5ch; color: var(--vscode-descriptionForeground); }
  .empty { padding: 16px; color: var(--vscode-descriptionForeground); }
  [hidden] { display: none !important; }
`;

const BODY = `<header>
  <h1 id="title">Trace</h1>
  <div class="meta" id="meta" role="status" aria-live="polite">Reading the trace…</div>
  <div id="notes"></div>
</header>
<main>
  <section id="waterfall" aria-label="Waterfall">
    <div class="axis" id="axis" aria-hidden="true"></div>
    <div id="viewport" tabindex="0" role="treegrid" aria-label="Spans: name, service, start and duration"></div>
  </section>
  <section id="side">
    <div id="details" aria-live="polite"><p class="empty">Select a span to see its attributes, resource and events.</p></div>
    <div id="logs"><h2>Logs of the trace</h2><div id="log-list"></div></div>
  </section>
</main>
`;

export function traceHtml(cspSource: string, nonce: string, scriptUri: string): string {
  return webviewPage({ cspSource, nonce, title: 'Trace', style: STYLE, body: BODY, scriptUri });
}
