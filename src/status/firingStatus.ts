import * as vscode from 'vscode';
import { affectsStatusBar, readSettings, type AlertWatchSettings } from '../config';
import type { ResourceCache } from '../resources/cache';
import { markdownText } from '../api';
import { alertLabel, isFiring, isSilenced } from '../labels/format';
import type { Alert, ConnectionSource } from '../resources/model';

export interface FiringAlert {
  readonly connectionId: string;
  readonly connectionLabel: string;
  readonly serviceId: string;
  readonly serviceName: string;
  readonly alert: Alert;
  /** When this window first saw it firing (epoch ms); undefined when it already fired when first loaded. */
  readonly since?: number;
}

/** Alerts that started or stopped firing between two loads of a service's alert list (silenced ones left out). */
export interface FiringChange {
  readonly started: readonly FiringAlert[];
  readonly stopped: readonly FiringAlert[];
}

interface SeenList {
  readonly list: readonly Alert[];
  /** Firing alerts (silenced too) and when this window first saw each fire. */
  readonly firingSince: ReadonlyMap<string, number | undefined>;
  /** Firing alerts that are not silenced. */
  readonly loud: ReadonlySet<string>;
}

/**
 * `$(bell-dot) 2 $(bell-slash) 1`: alerts firing across the services shown in the explorer, silenced ones apart.
 *
 * It reads the tree's alert cache. It loads alert lists itself every `observability.alerts.refreshIntervalSeconds`,
 * only while the window is focused (unless notifications are asked for while it is not) and never at activation;
 * the requests go through the connection's client and so the same per-key rate limiter as everything else. Lists
 * the tree loaded recently are reused as they are. Each recount compares a service's list with the one seen before
 * and reports alerts that started or stopped firing (`onDidChangeFiring`).
 */
export class FiringStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changes = new vscode.EventEmitter<FiringChange>();
  /** Fires after a recount found alerts that started or stopped firing. */
  readonly onDidChangeFiring = this.changes.event;
  private timer: NodeJS.Timeout | undefined;
  private lastTick = Date.now();
  private ticking: Promise<void> | undefined;
  private enabled: boolean;
  private watch: AlertWatchSettings;
  /** Per service (`connection/service`): the list last counted and the firing alerts' first-seen times. */
  private readonly seen = new Map<string, SeenList>();
  /** The firing alerts last counted (silenced ones not included). */
  firing: FiringAlert[] = [];
  /** Alerts that fire but are silenced. */
  silenced: FiringAlert[] = [];

  constructor(
    private readonly connections: ConnectionSource,
    private readonly cache: ResourceCache,
  ) {
    this.item = vscode.window.createStatusBarItem('observability.firingAlerts', vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t('Observability: Firing Alerts');
    this.item.command = { title: vscode.l10n.t('Show Alerts'), command: 'observability.showFiringAlerts' };
    const settings = readSettings();
    this.enabled = settings.statusBarEnabled;
    this.watch = settings.alerts;
    this.disposables.push(
      this.item,
      this.changes,
      cache.onDidChange((e) => {
        if (e.kind === 'alerts') this.update();
      }),
      connections.onDidChange(() => this.update()),
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused && Date.now() - this.lastTick >= this.intervalMs) void this.tick();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!affectsStatusBar(e)) return;
        const next = readSettings();
        this.enabled = next.statusBarEnabled;
        this.watch = next.alerts;
        this.schedule();
        this.update();
      }),
    );
    this.schedule();
    this.update();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    for (const d of this.disposables) d.dispose();
  }

  get intervalMs(): number {
    return this.watch.refreshIntervalMs;
  }

  /** Whether anything needs the alert lists: the status item or notifications. */
  private get polling(): boolean {
    return this.enabled || this.watch.notify;
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (!this.polling) return;
    this.timer = setInterval(() => {
      const unfocusedOk = this.watch.notify && this.watch.notifyWhileUnfocused;
      if (vscode.window.state.focused || unfocusedOk) void this.tick();
    }, this.intervalMs);
    this.timer.unref?.();
  }

  /**
   * Loads alert lists older than the interval (one service after another), then recounts. `force`: also when
   * neither the status item nor notifications want the lists (Show Firing Alerts).
   */
  tick(force = false): Promise<void> {
    if (!this.polling && !force) return Promise.resolve();
    if (this.ticking) return this.ticking;
    this.lastTick = Date.now();
    // A little under the interval, so a timer that fires a moment early still reloads.
    const maxAgeMs = Math.max(0, this.intervalMs - 1000);
    this.ticking = (async () => {
      for (const connection of this.connections.list()) {
        for (const serviceId of connection.serviceIds) {
          await this.cache.ensure(connection.id, serviceId, 'alerts', { maxAgeMs, origin: 'background' });
        }
      }
    })().finally(() => {
      this.ticking = undefined;
      this.update();
    });
    return this.ticking;
  }

  /** Recounts from the cache (no requests), reports what started or stopped firing, and redraws the item. */
  update(): void {
    const now = Date.now();
    const firing: FiringAlert[] = [];
    const silenced: FiringAlert[] = [];
    const started: FiringAlert[] = [];
    const stopped: FiringAlert[] = [];
    const present = new Set<string>();
    let known = 0;
    for (const connection of this.connections.list()) {
      const names = new Map(connection.services.map((s) => [s.id, s.name]));
      for (const serviceId of connection.serviceIds) {
        const alerts = this.cache.peek(connection.id, serviceId, 'alerts');
        if (!alerts) continue;
        known++;
        const key = `${connection.id}/${serviceId}`;
        present.add(key);
        const before = this.seen.get(key);
        const firingSince = new Map<string, number | undefined>();
        const loud = new Set<string>();
        const base = {
          connectionId: connection.id,
          connectionLabel: connection.label,
          serviceId,
          serviceName: names.get(serviceId) ?? serviceId,
        };
        for (const alert of alerts) {
          if (!isFiring(alert)) continue;
          const wasFiring = before?.firingSince.has(alert.id) ?? false;
          const since = wasFiring ? before!.firingSince.get(alert.id) : before ? now : undefined;
          firingSince.set(alert.id, since);
          const entry: FiringAlert = { ...base, alert, since };
          if (isSilenced(alert, now)) {
            silenced.push(entry);
            continue;
          }
          firing.push(entry);
          loud.add(alert.id);
          if (before && before.list !== alerts && !before.loud.has(alert.id)) started.push(entry);
        }
        if (before && before.list !== alerts) {
          for (const alert of alerts) {
            if (before.loud.has(alert.id) && !isFiring(alert) && !isSilenced(alert, now)) {
              stopped.push({ ...base, alert });
            }
          }
        }
        this.seen.set(key, { list: alerts, firingSince, loud });
      }
    }
    for (const key of [...this.seen.keys()]) if (!present.has(key)) this.seen.delete(key);
    this.firing = firing;
    this.silenced = silenced;
    if (started.length > 0 || stopped.length > 0) this.changes.fire({ started, stopped });
    this.draw(known);
  }

  private draw(known: number): void {
    const { firing, silenced } = this;
    if (!this.enabled || known === 0) {
      this.item.hide();
      return;
    }
    const silencedText = silenced.length > 0 ? ` $(bell-slash) ${silenced.length}` : '';
    this.item.text = (firing.length > 0 ? `$(bell-dot) ${firing.length}` : '$(bell) 0') + silencedText;
    this.item.backgroundColor =
      firing.length > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    const list = (alerts: readonly FiringAlert[], icon: string) => {
      for (const f of alerts.slice(0, 20)) {
        tooltip.appendMarkdown(`- $(${icon}) `);
        tooltip.appendMarkdown(`${markdownText(f.serviceName)} › ${markdownText(alertLabel(f.alert))}`);
        tooltip.appendMarkdown('\n');
      }
      if (alerts.length > 20) tooltip.appendMarkdown(`- ${vscode.l10n.t('… and {0} more', alerts.length - 20)}\n`);
    };
    if (firing.length === 0) {
      tooltip.appendMarkdown(vscode.l10n.t('No alerts firing'));
      tooltip.appendMarkdown('\n\n');
    } else {
      tooltip.appendMarkdown(`**${firingCountText(firing.length)}**\n\n`);
      list(firing, 'bell-dot');
      tooltip.appendMarkdown('\n');
    }
    if (silenced.length > 0) {
      tooltip.appendMarkdown(`**${silencedCountText(silenced.length)}**\n\n`);
      list(silenced, 'bell-slash');
      tooltip.appendMarkdown('\n');
    }
    tooltip.appendMarkdown(vscode.l10n.t('Click to choose a firing alert.'));
    this.item.tooltip = tooltip;
    const label = [firingCountText(firing.length), silenced.length ? silencedCountText(silenced.length) : undefined]
      .filter((x) => x)
      .join(', ');
    this.item.accessibilityInformation = { label };
    this.item.show();
  }
}

function firingCountText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 alert firing') : vscode.l10n.t('{0} alerts firing', n);
}

function silencedCountText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 firing alert silenced') : vscode.l10n.t('{0} firing alerts silenced', n);
}
