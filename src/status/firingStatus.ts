import * as vscode from 'vscode';
import { affectsStatusBar, readSettings } from '../config';
import { STATUS_FIRST_REFRESH_MS } from '../constants';
import type { ResourceCache } from '../resources/cache';
import { markdownText } from '../api';
import { alertLabel } from '../shared/format';
import type { Alert, ConnectionSource } from '../resources/model';

/** How often the status bar reloads alert lists, at most. */
export const STATUS_REFRESH_MINUTES = STATUS_FIRST_REFRESH_MS / 60_000;

export interface FiringAlert {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly serviceName: string;
  readonly alert: Alert;
}

/**
 * `$(bell-dot) 3`: alerts firing across the services shown in the explorer.
 *
 * It reads the tree's alert cache. It loads alert lists itself only while the window is focused, no more often than
 * every STATUS_REFRESH_MINUTES per service and never at activation; the requests go through the same per-key rate
 * limiter as everything else. Lists the tree loaded recently are reused as they are.
 */
export class FiringStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastTick = Date.now();
  private ticking: Promise<void> | undefined;
  private enabled: boolean;
  /** The firing alerts last counted. */
  firing: FiringAlert[] = [];

  constructor(
    private readonly connections: ConnectionSource,
    private readonly cache: ResourceCache,
    private readonly intervalMs = STATUS_REFRESH_MINUTES * 60_000,
  ) {
    this.item = vscode.window.createStatusBarItem('observability.firingAlerts', vscode.StatusBarAlignment.Left, 50);
    this.item.name = vscode.l10n.t('Observability: Firing Alerts');
    this.item.command = { title: vscode.l10n.t('Show Alerts'), command: 'observability.showFiringAlerts' };
    this.enabled = readSettings().statusBarEnabled;
    this.disposables.push(
      this.item,
      cache.onDidChange((e) => {
        if (e.kind === 'alerts') this.update();
      }),
      connections.onDidChange(() => this.update()),
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused && Date.now() - this.lastTick >= this.intervalMs) void this.tick();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!affectsStatusBar(e)) return;
        this.enabled = readSettings().statusBarEnabled;
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

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (!this.enabled) return;
    this.timer = setInterval(() => {
      if (vscode.window.state.focused) void this.tick();
    }, this.intervalMs);
    this.timer.unref?.();
  }

  /** Loads alert lists older than the interval (one service after another), then recounts. */
  tick(): Promise<void> {
    if (!this.enabled) return Promise.resolve();
    if (this.ticking) return this.ticking;
    this.lastTick = Date.now();
    this.ticking = (async () => {
      for (const connection of this.connections.list()) {
        for (const serviceId of connection.serviceIds) {
          await this.cache.ensure(connection.id, serviceId, 'alerts', {
            maxAgeMs: this.intervalMs,
            origin: 'background',
          });
        }
      }
    })().finally(() => {
      this.ticking = undefined;
      this.update();
    });
    return this.ticking;
  }

  /** Recounts from the cache (no requests) and redraws the item. */
  update(): void {
    if (!this.enabled) {
      this.item.hide();
      return;
    }
    const firing: FiringAlert[] = [];
    let known = 0;
    for (const connection of this.connections.list()) {
      const names = new Map(connection.services.map((s) => [s.id, s.name]));
      for (const serviceId of connection.serviceIds) {
        const alerts = this.cache.peek(connection.id, serviceId, 'alerts');
        if (!alerts) continue;
        known++;
        for (const alert of alerts) {
          if (alert.state === 'ALERT') {
            firing.push({
              connectionId: connection.id,
              serviceId,
              serviceName: names.get(serviceId) ?? serviceId,
              alert,
            });
          }
        }
      }
    }
    this.firing = firing;
    if (known === 0) {
      this.item.hide();
      return;
    }
    this.item.text = firing.length > 0 ? `$(bell-dot) ${firing.length}` : '$(bell) 0';
    this.item.backgroundColor =
      firing.length > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    if (firing.length === 0) {
      tooltip.appendMarkdown(vscode.l10n.t('No alerts firing'));
    } else {
      tooltip.appendMarkdown(`**${vscode.l10n.t('{0} alerts firing', firing.length)}**\n\n`);
      for (const f of firing.slice(0, 20)) {
        tooltip.appendMarkdown('- $(bell-dot) ');
        tooltip.appendMarkdown(`${markdownText(f.serviceName)} › ${markdownText(alertLabel(f.alert))}`);
        tooltip.appendMarkdown('\n');
      }
      if (firing.length > 20) tooltip.appendMarkdown(`- ${vscode.l10n.t('… and {0} more', firing.length - 20)}\n`);
    }
    tooltip.appendMarkdown(`\n\n${vscode.l10n.t('Click to open the Observability view.')}`);
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: vscode.l10n.t('{0} alerts firing', firing.length) };
    this.item.show();
  }
}
