import * as vscode from 'vscode';
import { redact } from './api/redact';

/**
 * The extension's single LogOutputChannel. Users pick the level with
 * "Developer: Set Log Level…". Every line passes through `redact` so a secret
 * that slipped into a message is never written.
 */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
  show(): void;
}

export function createLogger(context: vscode.ExtensionContext, secrets: () => readonly string[]): Logger {
  const channel = vscode.window.createOutputChannel('Observability', { log: true });
  context.subscriptions.push(channel);
  const clean = (m: string | Error) => redact(typeof m === 'string' ? m : (m.stack ?? m.message), secrets());
  return {
    trace: (m) => channel.trace(clean(m)),
    debug: (m) => channel.debug(clean(m)),
    info: (m) => channel.info(clean(m)),
    warn: (m) => channel.warn(clean(m)),
    error: (m) => channel.error(clean(m)),
    show: () => channel.show(true),
  };
}
