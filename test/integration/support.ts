/**
 * Helpers shared by the integration suites (they run in the extension host of a real VS Code): the extension and
 * its exported API, settings, waits, rejections, documents, tree items, the log file, and the sample data's
 * alertable tiles. Not a test file itself (index.ts loads only `*.test.js`).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import type { Emulator } from '../emulator/server';

export type { ExtensionApi };

/** The extension's ID (publisher.name in package.json). */
export const EXTENSION_ID = 'obs-tools.observability-explorer';
/** The log file the extension writes in its log folder (`ExtensionApi.logUri`). */
export const LOG_FILE = 'Observability.log';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The extension as installed in the test host; fails when it is not installed. */
export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in the test host`);
  return ext;
}

/**
 * Activates the extension and returns its API. `T` narrows the type for suites that look at the API through a view
 * of their own. Checking for `connections` reads no getter, so this does not load the features.
 */
export async function activate<T = ExtensionApi>(): Promise<T> {
  const api: unknown = await extension().activate();
  assert.ok(api && typeof api === 'object' && 'connections' in api, 'the extension does not export its connections');
  return api as T;
}

/** The API of the already activated extension. */
export function exportedApi<T = ExtensionApi>(): T {
  return extension().exports as T;
}

/** Sets (or with `undefined` removes) a user setting, `observability.*` unless another section is given. */
export async function configure(key: string, value: unknown, section = 'observability'): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}

/**
 * Polls `probe` until it returns something other than `undefined` or `false`, and returns that; throws
 * `Timed out waiting for <what>` after `timeoutMs`.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** The error a promise (a command, usually) rejects with; fails with `expected` when it fulfils. */
export async function rejection(promise: Thenable<unknown>, expected = 'expected the command to fail'): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  assert.fail(expected);
}

// ── Documents and files ─────────────────────────────────────────────────────────────────────────────────────────

/** The open document with this URI; fails when it is not open. */
export function docOf(uri: string): vscode.TextDocument {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  assert.ok(doc, `document ${uri} is open`);
  return doc;
}

/** Replaces the whole text of a document, as typing would (the document becomes dirty). */
export async function replaceText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

/** Sets one top-level field of a JSON document and writes it back, pretty-printed. */
export async function setField(doc: vscode.TextDocument, field: string, value: unknown): Promise<void> {
  const body = JSON.parse(doc.getText()) as Record<string, unknown>;
  body[field] = value;
  await replaceText(doc, `${JSON.stringify(body, null, 2)}\n`);
}

/** Closes every editor; resource documents left dirty on purpose are reverted first, so no save prompt appears. */
export async function closeAll(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.uri.scheme === 'observability' && doc.isDirty) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export async function readFile(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

export async function writeFile(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}

/** The file's text, or `undefined` when it cannot be read. */
export async function readIfExists(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return await readFile(uri);
  } catch {
    return undefined;
  }
}

// ── The log ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** The extension's log file. */
export const logFile = (api: { readonly logUri: vscode.Uri }): vscode.Uri => vscode.Uri.joinPath(api.logUri, LOG_FILE);

/** The text of the extension's log file; fails when it cannot be read. */
export async function logText(api: { readonly logUri: vscode.Uri }): Promise<string> {
  return readFile(logFile(api));
}

/** The text of the extension's log file, empty when it cannot be read (yet). */
export async function readLog(api: { readonly logUri: vscode.Uri }): Promise<string> {
  return (await readIfExists(logFile(api))) ?? '';
}

/** Waits until the log file holds a line matching `pattern` (the log is written asynchronously). */
export async function waitForLog(
  api: { readonly logUri: vscode.Uri },
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = await readLog(api);
    if (pattern.test(text)) return text;
    await sleep(200);
  }
  assert.fail(`the log never matched ${pattern}; it holds:\n${text.slice(-2000)}`);
}

// ── Tree items ──────────────────────────────────────────────────────────────────────────────────────────────────

export function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

/** The codicon ID of a tree item's icon, if it has a theme icon. */
export function iconOf(item: vscode.TreeItem): string | undefined {
  const icon = item.iconPath as { id?: unknown } | undefined;
  return typeof icon?.id === 'string' ? icon.id : undefined;
}

/** A tree item's tooltip as text (the Markdown source of a Markdown tooltip). */
export function tooltipText(item: vscode.TreeItem): string {
  const t = item.tooltip;
  if (typeof t === 'string') return t;
  return t?.value ?? '';
}

// ── Sample data ─────────────────────────────────────────────────────────────────────────────────────────────────

/** A tile as the emulator stores it (the fields the suites look at). */
export interface StoredTile {
  id: string;
  name: string;
  config?: { displayType?: string };
}

/** Tiles an alert can watch: line, number and stacked bar charts. */
export const isAlertableTile = (tile: { config?: { displayType?: string } }): boolean =>
  ['line', 'number', 'stacked_bar'].includes(tile.config?.displayType ?? '');

/** What a new alert on a service of the emulator needs: a dashboard with an alertable tile, the tile, a webhook. */
export interface AlertTarget {
  dashboardId: string;
  tile: StoredTile;
  tileId: string;
  webhookId: string;
}

/** The first dashboard of the service with an alertable tile, that tile, and the service's first webhook. */
export function alertTarget(emulator: Emulator, serviceId: string): AlertTarget {
  const data = emulator.state.data.get(serviceId);
  assert.ok(data, `the emulator has no service ${serviceId}`);
  for (const d of data.dashboards.values()) {
    const tile = (d.tiles as unknown as StoredTile[]).find(isAlertableTile);
    if (tile) {
      return {
        dashboardId: d.id as string,
        tile,
        tileId: tile.id,
        webhookId: [...data.webhooks.values()][0]!.id as string,
      };
    }
  }
  throw new Error('no alertable tile in the sample data');
}
