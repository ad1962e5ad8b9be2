/**
 * Addresses of resources in the web app of a self-hosted ClickStack / HyperDX deployment (no `vscode`): the
 * deployment's base URL (the app's own address, path prefix kept) and the app's routes `/dashboards/<id>`, `/alerts`
 * (the alerts page lists them all) and `/search/<id>` (a saved search). Cloud consoles are not addressed: the
 * console's address of a ClickStack service is not known to the extension, so nothing is offered there.
 */

export type WebAppTarget =
  | { readonly kind: 'dashboard'; readonly id: string }
  | { readonly kind: 'alert'; readonly id: string }
  | { readonly kind: 'savedSearch'; readonly id: string };

/** The page of a resource in the web app, or undefined when the base URL is not an http(s) address. */
export function webAppUrl(baseUrl: string, target: WebAppTarget): string | undefined {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') return undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  const id = encodeURIComponent(target.id);
  const route =
    target.kind === 'dashboard' ? `/dashboards/${id}` : target.kind === 'savedSearch' ? `/search/${id}` : '/alerts';
  return `${base.origin}${prefix}${route}`;
}
