/**
 * What the webview pages share: the nonce that admits their own script and style, and the page around a panel's
 * style and body — CSP `default-src 'none'`, images only from the extension and data URLs, style and script only
 * with the nonce, the script from the extension's dist/ folder. No remote content; colours come from the theme.
 */
import { randomBytes } from 'node:crypto';

/** A fresh nonce for one page (32 characters of 24 random bytes). */
export function makeNonce(): string {
  return randomBytes(24).toString('base64url');
}

export interface WebviewPage {
  /** The webview's `cspSource`. */
  cspSource: string;
  nonce: string;
  /** The page's title (plain text). */
  title: string;
  /** The page's style sheet (CSS, inline under the nonce). */
  style: string;
  /** The page's body markup, without the script. */
  body: string;
  /** The webview URI of the page's script. */
  scriptUri: string;
}

/** A panel's whole page. */
export function webviewPage(page: WebviewPage): string {
  const { cspSource, nonce } = page;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${page.title}</title>
<style nonce="${nonce}">
${page.style}</style>
</head>
<body>
${page.body}<script nonce="${nonce}" src="${page.scriptUri}"></script>
</body>
</html>`;
}
