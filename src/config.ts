import * as vscode from 'vscode';

/**
 * Typed access to the extension's settings and to the VS Code network settings it honours.
 *
 * Everything that could send a stored API key somewhere else (timeouts and limits included, since they shape the
 * requests) is declared with `scope: "application"` in package.json, so a workspace cannot override it. The
 * service's base URL is not a setting at all: it is part of each stored connection.
 */

export const SECTION = 'observability';

export interface RateLimitSettings {
  /** Requests allowed per key within one window. */
  readonly requests: number;
  /** Window length in milliseconds. */
  readonly windowMs: number;
}

export interface ProxySettings {
  /** `http.proxy`; empty means "use the environment" (`HTTPS_PROXY`, …). */
  readonly proxy?: string;
  /** `http.proxyStrictSSL`. */
  readonly strictSSL: boolean;
  /** `http.noProxy`, joined with commas. */
  readonly noProxy?: string;
}

export interface AlertWatchSettings {
  /** How often the status bar and notifications reload alert lists (ms). */
  readonly refreshIntervalMs: number;
  /** Notify when an alert starts or stops firing. */
  readonly notify: boolean;
  /** Connections (label) or services (name or ID) to notify about; empty: all. */
  readonly notifyScope: readonly string[];
  /** Keep polling and notifying while the window is not focused. */
  readonly notifyWhileUnfocused: boolean;
}

export interface Settings {
  readonly requestTimeoutMs: number;
  readonly rateLimit: RateLimitSettings;
  readonly statusBarEnabled: boolean;
  readonly alerts: AlertWatchSettings;
  readonly proxy: ProxySettings;
}

/** Default and bounds of `observability.alerts.refreshIntervalSeconds`. */
export const ALERT_REFRESH_SECONDS = { default: 300, min: 15, max: 86_400 } as const;

function clampNumber(value: unknown, fallback: number, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}

/**
 * Reads a setting only from the scopes a user controls (default, global/user, remote machine). Workspace and folder
 * values are ignored on purpose: they come from the repository that is open, not from the user.
 */
function userValue<T>(config: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const inspected = config.inspect<T>(key);
  if (!inspected) return undefined;
  return inspected.globalValue ?? inspected.defaultValue;
}

export function readSettings(): Settings {
  const own = vscode.workspace.getConfiguration(SECTION);
  const http = vscode.workspace.getConfiguration('http');

  const timeoutSeconds = clampNumber(userValue<number>(own, 'requestTimeoutSeconds'), 30, 1, 300);
  const requests = Math.round(clampNumber(userValue<number>(own, 'rateLimit.requestsPerWindow'), 10, 1, 1000));
  const windowSeconds = clampNumber(userValue<number>(own, 'rateLimit.windowSeconds'), 10, 1, 3600);
  // Only cosmetic, so a workspace may turn it off.
  const statusBar = own.get<boolean>('statusBar.enabled', true);

  // Polling and notifications send requests with the stored keys: only the user's own settings count.
  const refreshSeconds = clampNumber(
    userValue<number>(own, 'alerts.refreshIntervalSeconds'),
    ALERT_REFRESH_SECONDS.default,
    ALERT_REFRESH_SECONDS.min,
    ALERT_REFRESH_SECONDS.max,
  );
  const scope = userValue<unknown>(own, 'alerts.notifications.scope');

  const proxy = userValue<string>(http, 'proxy');
  const strictSSL = userValue<boolean>(http, 'proxyStrictSSL');
  const noProxy = userValue<string[] | string>(http, 'noProxy');
  const noProxyText = Array.isArray(noProxy)
    ? noProxy.filter((entry) => typeof entry === 'string' && entry.trim() !== '').join(',')
    : typeof noProxy === 'string'
      ? noProxy
      : '';

  return {
    requestTimeoutMs: Math.round(timeoutSeconds * 1000),
    rateLimit: { requests, windowMs: Math.round(windowSeconds * 1000) },
    statusBarEnabled: statusBar !== false,
    alerts: {
      refreshIntervalMs: Math.round(refreshSeconds * 1000),
      notify: userValue<boolean>(own, 'alerts.notifications.enabled') === true,
      notifyScope: Array.isArray(scope)
        ? scope.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim())
        : [],
      notifyWhileUnfocused: userValue<boolean>(own, 'alerts.notifications.whileUnfocused') === true,
    },
    proxy: {
      proxy: typeof proxy === 'string' && proxy.trim() !== '' ? proxy.trim() : undefined,
      strictSSL: strictSSL !== false,
      noProxy: noProxyText !== '' ? noProxyText : undefined,
    },
  };
}

/** True when a change touches a setting that shapes requests (ours or VS Code's proxy settings). */
export function affectsRequests(event: vscode.ConfigurationChangeEvent): boolean {
  return (
    event.affectsConfiguration(`${SECTION}.requestTimeoutSeconds`) ||
    event.affectsConfiguration(`${SECTION}.rateLimit`) ||
    event.affectsConfiguration('http.proxy') ||
    event.affectsConfiguration('http.proxyStrictSSL') ||
    event.affectsConfiguration('http.noProxy')
  );
}

/** True when the status-bar setting or how alerts are watched changed. */
export function affectsStatusBar(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SECTION}.statusBar.enabled`) || event.affectsConfiguration(`${SECTION}.alerts`);
}
