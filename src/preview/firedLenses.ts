import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import { parseUri } from '../jsonDocuments/uris';
import type { Backtests } from './backtests';
import { FAILED_TTL_MS, FIRED_TTL_MS, FOLLOW_DELAY_MS, isObject, type AlertSource, type Scope } from './context';
import { parseAlertText, type PreviewTargets } from './targets';
import { SqlHeld, type HoldCommand } from '../sqlHold';

/** Registers the "would have fired N× in the last 24 h" CodeLens on alert documents and alert files. */
export function registerFiredLenses(
  context: vscode.ExtensionContext,
  connections: ConnectionManager,
  log: Logger,
  targets: PreviewTargets,
  backtests: Backtests,
  released?: vscode.Event<void>,
): void {
  const { alertFrom, scopeOfFile } = targets;
  const { backtest } = backtests;

  // ---- CodeLens on alert documents and files: "would have fired N× in the last 24 h" --------------------------------
  //
  // The provider answers at once from a cache keyed by the document and what the backtest depends on (the target
  // connection and service, the alert's query, threshold and schedule fields). A key it has not computed shows a
  // "backtest…" lens and starts the backtest in the background: debounced while the fields change, one backtest at a
  // time (the query client's limiter keeps them within the rate budget); the result replaces the lens through
  // onDidChangeCodeLenses. A failure is a short lens that opens the log, never a thrown error.
  //
  // The lens is work the user did not ask for: its SQL goes out only when the service is ready for it (see
  // `PreviewDeps.background`). A connection without a query host, a key the query endpoint refused, an idle or stopped
  // service: the lens says so and offers the command that helps (Set Query Host…, Enable This Key…, or running the
  // backtest by hand), and waits — it is not retried until the hold is lifted.

  interface FiredLens {
    key: string;
    state: 'pending' | 'done' | 'failed' | 'held';
    /** When the result was computed (results go stale: "the last 24 h" moves on). */
    at: number;
    title: string;
    tooltip?: string | undefined;
    /** A held lens: the command that lifts the hold (else Backtest Alert by hand). */
    command?: HoldCommand | undefined;
  }
  const firedLenses = new Map<string, FiredLens>();
  const firedTimers = new Map<string, ReturnType<typeof setTimeout>>();
  let firedQueue: Promise<void> = Promise.resolve();
  const alertLensChanged = new vscode.EventEmitter<void>();
  context.subscriptions.push(alertLensChanged, {
    dispose: () => {
      for (const t of firedTimers.values()) clearTimeout(t);
      firedTimers.clear();
    },
  });

  /** The fields that change what a backtest answers. */
  function backtestKey(scope: Scope, alert: Record<string, unknown>): string {
    const pick = [
      'source',
      'dashboardId',
      'tileId',
      'savedSearchId',
      'groupBy',
      'interval',
      'threshold',
      'thresholdType',
      'thresholdMax',
      'scheduleOffsetMinutes',
      'scheduleStartAt',
      'numConsecutiveWindows',
    ];
    return JSON.stringify([scope.connectionId, scope.serviceId, ...pick.map((k) => alert[k] ?? null)]);
  }

  async function firedSummary(a: AlertSource): Promise<string> {
    const to = Date.now();
    const { result } = await backtest(a, { from: to - 24 * 3_600_000, to }, { background: true });
    const count = result.fired.length;
    if (count === 0) return vscode.l10n.t('would not have fired in the last 24 h');
    const last = result.lastFiredAt !== undefined ? hhmm(result.lastFiredAt) : '?';
    return vscode.l10n.t('would have fired {0}× in the last 24 h (last at {1})', count, last);
  }

  /** Whether a document is an alert: the service's alert documents and the workspace's `*.alert.json` files. */
  function alertDocumentKind(uri: vscode.Uri): 'resource' | 'file' | undefined {
    const ref = parseUri(uri);
    if (ref) return ref.kind === 'alert' ? 'resource' : undefined;
    if (!uri.path.endsWith('.alert.json')) return undefined;
    // The extension's other documents (plans, the service side of comparisons, read-only copies) share the suffix.
    if (uri.scheme.startsWith('observability') || uri.scheme === 'git' || uri.scheme === 'output') return undefined;
    return 'file';
  }

  /** Runs the backtest of a document's lens (after the debounce, one at a time) and redraws the lenses. */
  function scheduleFired(docKey: string, key: string, delay: number): void {
    const prior = firedTimers.get(docKey);
    if (prior) clearTimeout(prior);
    firedLenses.set(docKey, { key, state: 'pending', at: Date.now(), title: '' });
    const timer = setTimeout(() => {
      firedTimers.delete(docKey);
      firedQueue = firedQueue.then(async () => {
        const entry = firedLenses.get(docKey);
        if (!entry || entry.key !== key || entry.state !== 'pending') return; // superseded or closed
        let next: FiredLens;
        try {
          const a = await alertFrom({ uri: docKey });
          // The key of what was actually computed: when the text moved on meanwhile, the lens asks again.
          next = { key: backtestKey(a, a.alert), state: 'done', at: Date.now(), title: await firedSummary(a) };
        } catch (e) {
          const message = errorMessage(e);
          if (e instanceof SqlHeld) {
            log.info(`backtest lens: not run: ${message}`);
            if (firedLenses.get(docKey)?.key !== key) return;
            firedLenses.set(docKey, { key, state: 'held', at: Date.now(), title: message, command: e.hold.command });
            alertLensChanged.fire();
            return;
          }
          log.warn(`backtest lens: ${message}`);
          next = {
            key,
            state: 'failed',
            at: Date.now(),
            title: vscode.l10n.t('backtest failed: {0}', shorten(message, 60)),
            tooltip: vscode.l10n.t('{0} (click to show the log)', shorten(message, 500)),
          };
        }
        if (firedLenses.get(docKey)?.key !== key) return;
        firedLenses.set(docKey, next);
        alertLensChanged.fire();
      });
    }, delay);
    firedTimers.set(docKey, timer);
  }

  const alertLenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: alertLensChanged.event,
    provideCodeLenses(doc) {
      const uri = doc.uri;
      const kind = alertDocumentKind(uri);
      if (!kind) return [];
      // An untrusted workspace's files send nothing on their own (their Validate lens stays).
      if (kind === 'file' && !vscode.workspace.isTrusted) return [];
      const value = parseAlertText(doc.getText());
      if (!isObject(value)) return [];
      const ref = parseUri(uri);
      const scope = ref ? { connectionId: ref.connectionId, serviceId: ref.serviceId } : scopeOfFile(value);
      // Without a connection, the alert file's own lens offers to add one.
      if (!scope) return [];
      const top = new vscode.Range(0, 0, 0, 0);
      const docKey = uri.toString();
      const key = backtestKey(scope, value);
      let entry = firedLenses.get(docKey);
      const age = entry ? Date.now() - entry.at : 0;
      const stale =
        (entry?.state === 'done' && age > FIRED_TTL_MS) || (entry?.state === 'failed' && age > FAILED_TTL_MS);
      if (!entry || entry.key !== key || stale) {
        // The first backtest of a document starts at once; a changed threshold or interval waits for typing to pause.
        scheduleFired(docKey, key, entry && entry.key !== key ? FOLLOW_DELAY_MS : 0);
        entry = firedLenses.get(docKey)!;
      }
      if (entry.state === 'pending') {
        return [
          new vscode.CodeLens(top, {
            title: `$(sync~spin) ${vscode.l10n.t('backtest…')}`,
            tooltip: vscode.l10n.t('Replaying the alert over the last 24 h'),
            command: 'observability.backtestAlert',
            arguments: [{ uri: docKey }],
          }),
        ];
      }
      if (entry.state === 'held') {
        const by = entry.command;
        return [
          new vscode.CodeLens(top, {
            title: `$(circle-slash) ${vscode.l10n.t('backtest not run: {0}', shorten(entry.title, 90))}`,
            tooltip: by
              ? vscode.l10n.t('{0}. Click: {1}', entry.title, by.title)
              : vscode.l10n.t('{0}. Click to run the backtest yourself.', entry.title),
            command: by ? by.command : 'observability.backtestAlert',
            arguments: by ? [...(by.arguments ?? [])] : [{ uri: docKey }],
          }),
        ];
      }
      if (entry.state === 'failed') {
        return [
          new vscode.CodeLens(top, {
            title: `$(warning) ${entry.title}`,
            ...(entry.tooltip ? { tooltip: entry.tooltip } : {}),
            command: 'observability.showLog',
          }),
        ];
      }
      return [
        new vscode.CodeLens(top, {
          title: `$(history) ${entry.title}`,
          tooltip: vscode.l10n.t('Open the backtest of this alert'),
          command: 'observability.backtestAlert',
          arguments: [{ uri: docKey }],
        }),
      ];
    },
  };

  const forgetLens = (docKey: string) => {
    const timer = firedTimers.get(docKey);
    if (timer) clearTimeout(timer);
    firedTimers.delete(docKey);
    firedLenses.delete(docKey);
  };

  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider(
      // The service's alert documents and the workspace's alert files (local, remote or untitled); the provider picks
      // them by name and leaves out the extension's other documents that share the suffix. A catch-all selector ranks
      // below the alert files' own (Create/Update, Compare, Validate), so their lenses stay first and do not move when
      // this one's text changes.
      { scheme: '*', language: '*' },
      alertLenses,
    ),
    vscode.workspace.onDidCloseTextDocument((d) => forgetLens(d.uri.toString())),
    connections.onDidChange(() => {
      // A connection added, moved or removed may change (or give) a file its target.
      for (const key of [...firedLenses.keys()]) forgetLens(key);
      alertLensChanged.fire();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => alertLensChanged.fire()),
  );
  if (released) {
    context.subscriptions.push(
      released(() => {
        // A hold may be lifted (query host set, key enabled, the user ran SQL there): held lenses look again.
        for (const [docKey, entry] of [...firedLenses]) if (entry.state === 'held') forgetLens(docKey);
        alertLensChanged.fire();
      }),
    );
  }
}

function shorten(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function hhmm(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
