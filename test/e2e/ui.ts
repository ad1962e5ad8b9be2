/**
 * Shared parts of the UI tests (Playwright driving the real workbench in code-server): opening a workbench connected
 * to the emulator, and the steps that find and drive workbench parts. Every wait is on a concrete UI condition, with
 * generous limits, so a slow CI machine only makes the tests slower.
 *
 * Two ways to open a workbench with a connection:
 * - `setup`: the workbench runs out/test/e2e/workbenchSetup.js as its test entry, which adds the connection and then
 *   stays pending (extension-test mode: the workbench refuses modal dialogs); a window reload runs the entry again,
 *   which then adds nothing;
 * - `demo`: the extension runs in development mode without a test entry and adds the connection from
 *   `$OBS_DEMO_CONNECTION` (the demo helper extension, test/demo/connection.ts) once activated; modal dialogs show as they do for a user.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { ossData, SAMPLE_OSS_MEMBERS } from '../emulator/oss/seed';
import type { Emulator } from '../emulator/server';
import type { RecordedRequest, ServiceData } from '../emulator/types';
import { openWorkbench, REPO_ROOT, type Workbench } from '../host/runInCodeServer';

/** Limit of a wait on something drawn in the workbench. */
export const UI_TIMEOUT = 30_000;
/** Limit of the workbench start-up (code-server, browser, extension host). */
export const START_TIMEOUT = 120_000;

// ---- connection kinds: the journeys that prove the Cloud features run once per kind ----

/**
 * What differs between the two kinds of connection for a UI journey that is otherwise the same: how the connection
 * is added (Cloud: organization, service, key ID and secret; self-hosted: the deployment's base URL and a personal
 * API key, plain HTTP on loopback), the tree's shape (Cloud: connection → service → folders; self-hosted: the
 * connection holds the folders), where requests go, and how an alert file names its target.
 *
 * Journeys parametrised with `forEachFlavor`: sidebar (browse down to an alert), editors (Create Alert: completion,
 * Ctrl+S, Ctrl+Enter), overwrite (an alert edited from the tree, conflict, Overwrite), firstAlert (a webhook created
 * first), resourceFolders (the kind's own folder: Roles on Cloud, Team on self-hosted; then Delete Alert from the tree,
 * in the same workbench), alertFile and alertFileFreshWindow (the file names its service, or its deployment by base
 * URL), untrusted (such a file in Restricted Mode gets schema help only), preview (dashboard preview and backtest: SQL
 * through the query endpoint on Cloud, the chart series API on self-hosted), serviceFolder (pull, plan, apply, drift
 * marks in the Explorer, Source Control and the tree), search and traces (SQL through the query endpoint on Cloud,
 * through ClickHouse access on self-hosted).
 *
 * Cloud only: queryEndpoint (the service query endpoint) and queryResults (SQL documents run through it), which a
 * self-hosted deployment's API does not have (its previews use the chart series API: see preview); addConnection (the
 * Cloud walk-through: organization, services, key ID and secret, path segment), whose self-hosted counterpart is
 * selfHosted.e2e.ts. Self-hosted only: selfHosted.e2e.ts and demo.e2e.ts (`npm run demo -- --flavor oss`).
 */
export interface UiFlavor {
  /** In the test titles: `Cloud` or `self-hosted`. */
  readonly name: 'Cloud' | 'self-hosted';
  readonly emulatorFlavor: 'cloud' | 'oss';
  /** The argument object of `observability.addConnection` for a connection to the emulator's first services. */
  connection(emulator: Emulator, label: string, serviceIds?: readonly string[]): Record<string, unknown>;
  /** The tree rows from the connection down to the node that holds the folders (Dashboards, Alerts, …). */
  folderPath(emulator: Emulator, label: string): string[];
  /** The name the extension shows for the connection's (first) service: in CodeLenses, notifications, dialogs. */
  serviceName(emulator: Emulator, label: string): string;
  /** The emulator's store of the connection's (first) service. */
  data(emulator: Emulator): ServiceData;
  /** The path of a collection (`alerts`, `dashboards`, …) as the emulator logs the request. */
  path(emulator: Emulator, collection: string): string;
  /** The collection a request path reads (`alerts` for `…/observability/alerts` or `/api/v2/alerts`). */
  collectionOf(path: string): string;
  /**
   * The requests among `requests` that change something on the service. On Cloud every request but a GET (the
   * previews' SQL goes to the query host, not to the API); on self-hosted also every request but a GET, except the
   * read-only queries of the chart series and search API (`POST /api/v2/charts/series`, `POST /api/v2/search`), which
   * the alert CodeLens "would have fired N× in the last 24 h" sends in the background.
   */
  writes(requests: readonly RecordedRequest[]): RecordedRequest[];
  /** Whether answers name the request (Cloud: `requestId`; the v2 API's `{data}` answers carry no request ID). */
  readonly requestIds: boolean;
  /** The path of the read that checks a new connection (Cloud: the service's sources; self-hosted: the team). */
  readonly checkedBy: RegExp;
  /** How an alert file names the connection's service: organization and service ID, or the base URL. */
  fileTarget(emulator: Emulator): Record<string, unknown>;
  /** The folder only this kind has, and a row it lists (Cloud: Roles; self-hosted: the team's members). */
  readonly ownFolder: { readonly folder: string; readonly row: string };
  /** Where a screenshot goes: media/ for Cloud (the README's pictures), out/self-hosted/ for self-hosted. */
  screenshot(file: string): string;
}

export const CLOUD: UiFlavor = {
  name: 'Cloud',
  emulatorFlavor: 'cloud',
  connection: (emulator, label, serviceIds) => ({
    baseUrl: emulator.url,
    keyId: emulator.keyId,
    keySecret: emulator.keySecret,
    organizationId: emulator.organizationId,
    serviceIds: serviceIds ?? emulator.serviceIds.slice(0, 1),
    label,
  }),
  folderPath: (emulator, label) => [label, emulator.state.services[0]!.name],
  serviceName: (emulator) => emulator.state.services[0]!.name,
  data: (emulator) => emulator.state.data.get(emulator.serviceIds[0]!)!,
  path: (emulator, collection) =>
    `/v1/organizations/${emulator.organizationId}/services/${emulator.serviceIds[0]!}/observability/${collection}`,
  collectionOf: (p) => p.replace(/^.*\/observability\//, ''),
  writes: (requests) => requests.filter((r) => r.method !== 'GET'),
  requestIds: true,
  checkedBy: /\/sources$/,
  fileTarget: (emulator) => ({ organizationId: emulator.organizationId, serviceId: emulator.serviceIds[0]! }),
  ownFolder: { folder: 'Roles', row: 'Admin' },
  screenshot: (file) => path.join(REPO_ROOT, 'media', file),
};

/** The self-hosted API's read-only queries, sent as POST. */
const OSS_READ_QUERIES = ['/api/v2/charts/series', '/api/v2/search'];

export const SELF_HOSTED: UiFlavor = {
  name: 'self-hosted',
  emulatorFlavor: 'oss',
  // The emulator listens on plain HTTP on loopback, which needs no confirmation (selfHosted.e2e.ts adds one by hand).
  connection: (emulator, label) => ({ kind: 'selfHosted', baseUrl: emulator.url, apiKey: emulator.ossApiKey, label }),
  folderPath: (_emulator, label) => [label],
  serviceName: (_emulator, label) => label,
  data: (emulator) => ossData(emulator.state),
  path: (_emulator, collection) => `/api/v2/${collection}`,
  collectionOf: (p) => p.replace(/^\/api\/v2\//, ''),
  writes: (requests) =>
    requests.filter((r) => r.method !== 'GET' && !(r.method === 'POST' && OSS_READ_QUERIES.includes(r.path))),
  requestIds: false,
  checkedBy: /^\/api\/v2\/team$/,
  fileTarget: (emulator) => ({ baseUrl: emulator.url }),
  ownFolder: { folder: 'Team', row: SAMPLE_OSS_MEMBERS[0]!.name },
  screenshot: (file) => path.join(REPO_ROOT, 'out', 'self-hosted', file),
};

/** Both kinds; `OBS_E2E_FLAVOR=cloud` or `=oss` runs the journeys on one kind only (while working on a journey). */
export function flavors(): readonly UiFlavor[] {
  const only = process.env.OBS_E2E_FLAVOR;
  if (only === undefined || only === '') return [CLOUD, SELF_HOSTED];
  const chosen = [CLOUD, SELF_HOSTED].filter((f) => f.emulatorFlavor === only);
  if (chosen.length === 0) throw new Error(`OBS_E2E_FLAVOR must be cloud or oss, not "${only}"`);
  return chosen;
}

/**
 * Registers a journey once per connection kind: `describe('<kind>')` around what `body` registers (its `before`,
 * `after` and tests), so each kind gets its own emulator and workbench and the same assertions.
 */
export function forEachFlavor(body: (flavor: UiFlavor) => void): void {
  for (const flavor of flavors()) describe(flavor.name, () => body(flavor));
}

export interface TestWorkbenchOptions {
  readonly emulator: Emulator;
  /** The kind of connection to add (default: Cloud). */
  readonly flavor?: UiFlavor;
  /** Label of the connection. */
  readonly label: string;
  /** Services a Cloud connection shows (default: the first). */
  readonly serviceIds?: readonly string[];
  readonly mode: 'setup' | 'demo';
  /** Folder opened as the workspace (default: a temporary empty folder). */
  readonly workspace?: string;
  /** Settings besides the defaults of the UI tests (dark theme, no command center, no auto save). */
  readonly userSettings?: Record<string, unknown>;
  /** `setup` mode, self-hosted: give the connection the emulator's ClickHouse access (SQL, search, traces). */
  readonly clickHouse?: boolean;
}

/**
 * Opens a workbench with a connection to the emulator. In `setup` mode it resolves once the connection is added; in
 * `demo` mode once the workbench has drawn its status bar (the connection is added when the extension activates,
 * e.g. when the Observability view opens: see `showObservabilityView`).
 */
export async function openTestWorkbench(opts: TestWorkbenchOptions): Promise<Workbench> {
  const { emulator } = opts;
  const connection = JSON.stringify((opts.flavor ?? CLOUD).connection(emulator, opts.label, opts.serviceIds));
  let ready: () => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const setupDone = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  const setup = opts.mode === 'setup';
  // The setup entry runs again after a window reload; this file tells it the connection is added already.
  const markerDir = setup ? fs.mkdtempSync(path.join(os.tmpdir(), 'obs-e2e-setup-')) : undefined;
  const removeMarker = () => {
    if (markerDir !== undefined) fs.rmSync(markerDir, { recursive: true, force: true });
  };
  const opened = await openWorkbench({
    viewport: { width: 1280, height: 800 },
    userSettings: {
      'workbench.colorTheme': 'Default Dark Modern',
      'window.commandCenter': false,
      'files.autoSave': 'off',
      ...opts.userSettings,
    },
    ...(opts.workspace !== undefined ? { workspace: opts.workspace } : {}),
    ...(setup
      ? {
          extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'e2e', 'workbenchSetup.js'),
          env: {
            OBS_E2E_CONNECTION: connection,
            OBS_E2E_SETUP_MARKER: path.join(markerDir!, 'connection-added'),
            ...(opts.clickHouse
              ? {
                  OBS_E2E_CLICKHOUSE: JSON.stringify({
                    url: emulator.clickHouseHttpUrl,
                    user: emulator.clickHouseUser,
                    password: emulator.clickHousePassword,
                  }),
                }
              : {}),
          },
          onLog: (line: string) => {
            if (line.includes('E2E SETUP READY')) ready();
            else if (process.env.OBS_TEST_VERBOSE) process.stdout.write(`${line}\n`);
          },
          onExit: (code: number) => failed(new Error(`the workbench setup exited with ${code}`)),
        }
      : { env: { OBS_DEMO_CONNECTION: connection } }),
  }).catch((error: unknown) => {
    removeMarker();
    throw error;
  });
  const workbench: Workbench = {
    ...opened,
    close: async () => {
      await opened.close();
      removeMarker();
    },
  };
  try {
    await workbench.page.locator('.monaco-workbench').first().waitFor({ state: 'attached', timeout: START_TIMEOUT });
    if (setup) await withTimeout(setupDone, START_TIMEOUT, 'the workbench setup did not finish');
    await workbench.page.locator('.statusbar').first().waitFor({ state: 'visible', timeout: START_TIMEOUT });
  } catch (error) {
    await workbench.close();
    throw error;
  }
  return workbench;
}

/** Waits for `promise` at most `ms` (the timer never outlives the wait, so it cannot hold the test process open). */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `check` until it holds (for state outside the page, such as files on disk or the emulator's data). A check
 * that throws does not hold yet: a file read while the editor saves it may be empty for a moment. The last error is
 * named when the wait ends.
 */
export async function until(check: () => boolean, message: string, ms = UI_TIMEOUT): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    let failure: unknown;
    try {
      if (check()) return;
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) {
      const why =
        failure === undefined ? '' : `; last: ${failure instanceof Error ? failure.message : String(failure)}`;
      throw new Error(`${message} (waited ${ms} ms${why})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---- quick input and commands ----

export const quickInput = (page: Page): Locator => page.locator('.quick-input-widget');
export const quickInputBox = (page: Page): Locator => quickInput(page).locator('.quick-input-box input');
export const quickInputRows = (page: Page): Locator => quickInput(page).locator('.quick-input-list .monaco-list-row');

/** Runs a command from the Command Palette (F1) by its full title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(`>${title}`);
  await quickInputRows(page).filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page.keyboard.press('Enter');
}

/**
 * Runs Developer: Reload Window and returns once the new page has loaded. Until the reload begins the old page stays
 * loaded and keeps showing what the new one will show, so the wait must see the new page: a mark left on the old
 * page's window is gone only from a new document.
 */
export async function reloadWindow(page: Page, timeout: number): Promise<void> {
  await page.evaluate(() => {
    (globalThis as { obsBeforeReload?: boolean }).obsBeforeReload = true;
  });
  const navigated = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout });
  await runCommand(page, 'Developer: Reload Window');
  await navigated;
  await page.waitForFunction(() => (globalThis as { obsBeforeReload?: boolean }).obsBeforeReload !== true, undefined, {
    timeout,
  });
  await page.waitForLoadState('load', { timeout });
}

/** Opens a workspace file with Quick Open and waits until its editor is the active one. */
export async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press('F1');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(name);
  await quickInputRows(page).filter({ hasText: name }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: name }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/** Closes the notifications shown so far, so they do not cover the workbench or get mistaken for later ones. */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.notification-toast').first().waitFor({ state: 'detached', timeout: UI_TIMEOUT });
}

/** The notification toast whose text contains `text`. */
export function notification(page: Page, text: string | RegExp): Locator {
  return page.locator('.notification-toast', { hasText: text }).first();
}

/**
 * Waits until the notification holding `text` is fully drawn (its fade-in done) and no progress notification is left,
 * so that a screenshot shows it legibly. Take the screenshot soon after: notifications without buttons hide after a
 * while.
 */
export async function settledNotification(page: Page, text: string | RegExp): Promise<void> {
  const toast = notification(page, text);
  await toast.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await page
    .locator('.notification-toast')
    .filter({ has: page.locator('.monaco-progress-container.active') })
    .first()
    .waitFor({ state: 'detached', timeout: UI_TIMEOUT });
  type Styles = { getComputedStyle(element: unknown): { opacity: string } };
  await page.waitForFunction(
    (el) => el !== null && (globalThis as unknown as Styles).getComputedStyle(el).opacity === '1',
    await toast.elementHandle(),
    { timeout: UI_TIMEOUT },
  );
}

/** The modal dialog; `confirmDialog` presses one of its buttons and waits until it has closed. */
export const dialog = (page: Page): Locator => page.locator('.monaco-dialog-box');

export async function confirmDialog(page: Page, button: string): Promise<void> {
  const box = dialog(page);
  await box.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await box.locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^${escapeRegExp(button)}$`) }).click();
  await box.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

// ---- the Observability view ----

/** A row of the views in the sidebar whose label is `name`. */
export function treeRow(page: Page, name: string | RegExp): Locator {
  return page
    .locator('.pane-body .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: name }) })
    .first();
}

/**
 * Expands the tree row `name` and waits until it shows expanded. The row is read afresh each time (a refresh of the
 * tree re-renders its rows), and a row the extension opens by default (a connection) reads collapsed until its
 * children have arrived: it is given a moment to open by itself first, since a click then would close it.
 */
export async function expand(page: Page, name: string | RegExp): Promise<void> {
  const row = treeRow(page, name);
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const opens = async (within: number): Promise<boolean> => {
    const until = Date.now() + within;
    for (;;) {
      if ((await row.getAttribute('aria-expanded')) === 'true') return true;
      if (Date.now() >= until) return false;
      await page.waitForTimeout(100);
    }
  };
  if (await opens(400)) return;
  for (let attempt = 1; attempt <= 3; attempt++) {
    await row.click();
    if (await opens(UI_TIMEOUT / 3)) return;
  }
  throw new Error(`the tree row ${String(name)} did not expand`);
}

/**
 * Clicks an item of the open context menu. A menu item reacts to clicks only once it has been shown for a moment
 * (100 ms in VS Code), so the click is repeated until the menu closes.
 */
/**
 * Right-clicks `row` until its context menu shows `label` (a right-click that lands while the tree draws the row again
 * opens no menu), then chooses it.
 */
export async function rowMenuItem(page: Page, row: Locator, label: string): Promise<void> {
  const item = page.locator('.context-view .monaco-menu .action-item', { hasText: label });
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    await row.click({ button: 'right' });
    try {
      await item.waitFor({ state: 'visible', timeout: 3_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await clickMenuItem(page, label);
}

export async function clickMenuItem(page: Page, label: string): Promise<void> {
  const menu = page.locator('.context-view .monaco-menu');
  const item = menu.locator('.action-item', { hasText: label });
  await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  for (let attempt = 1; ; attempt++) {
    await item.click();
    try {
      await menu.waitFor({ state: 'hidden', timeout: 2_000 });
      return;
    } catch (error) {
      if (attempt >= 10) throw error;
    }
  }
}

/**
 * A workbench in `demo` mode (modal dialogs show as for a user) with the Observability view open and expanded down to
 * the node holding the folders (the first service on Cloud, the connection on self-hosted): the set-up the tree UI
 * tests share.
 */
export async function openServiceInTree(flavor: UiFlavor, emulator: Emulator, label: string): Promise<Workbench> {
  const workbench = await openTestWorkbench({ flavor, emulator, label, mode: 'demo' });
  try {
    await showObservabilityView(workbench.page, label);
    await showFolders(workbench.page, flavor, emulator, label);
  } catch (error) {
    await workbench.page
      .screenshot({ path: path.join(REPO_ROOT, 'out', 'tree-setup.failed.png') })
      .catch(() => undefined);
    await workbench.close();
    throw error;
  }
  return workbench;
}

/** Opens the Observability view (which activates the extension) and waits for the connection `label` in it. */
export async function showObservabilityView(page: Page, label: string): Promise<void> {
  const activity = page
    .locator(
      '.activitybar .action-item a[aria-label^="Observability"], .activitybar .action-label[aria-label^="Observability"]',
    )
    .first();
  await activity.waitFor({ state: 'visible', timeout: START_TIMEOUT });
  if (!(await treeRow(page, label).isVisible())) await activity.click();
  await treeRow(page, label).waitFor({ state: 'visible', timeout: START_TIMEOUT });
}

/** Expands the tree from the connection down to the node holding the folders (the view shows the connection). */
export async function showFolders(page: Page, flavor: UiFlavor, emulator: Emulator, label: string): Promise<void> {
  for (const row of flavor.folderPath(emulator, label)) await expand(page, exactly(row));
}

/**
 * Opens the Observability view (unless it shows) and expands the connection down to the folder `folder` (`Alerts`,
 * `Dashboards`, …) of its service.
 */
export async function openResourceFolder(
  page: Page,
  flavor: UiFlavor,
  emulator: Emulator,
  label: string,
  folder: string,
): Promise<void> {
  await showObservabilityView(page, label);
  await showFolders(page, flavor, emulator, label);
  await expand(page, exactly(folder));
}

/**
 * Opens the alert `name` for editing from its service's Alerts folder (the row's Edit action) and waits until its
 * document is the active tab.
 */
export async function editAlertFromTree(
  page: Page,
  flavor: UiFlavor,
  emulator: Emulator,
  label: string,
  name: string,
): Promise<void> {
  await openResourceFolder(page, flavor, emulator, label, 'Alerts');
  const row = treeRow(page, name);
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  const tab = page.locator('.tab.active', { hasText: `${name}.alert.json` });
  // The folder's row is drawn again with its count once its alerts are shown: a click on a row being redrawn is
  // tried again.
  for (let attempt = 1; ; attempt++) {
    await row.hover();
    await row.locator('.action-label[aria-label="Edit"]').click();
    try {
      await tab.waitFor({ state: 'visible', timeout: attempt < 3 ? UI_TIMEOUT / 3 : UI_TIMEOUT });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** A pattern matching exactly `text` (a tree label). */
export function exactly(text: string): RegExp {
  return new RegExp(`^${escapeRegExp(text)}$`);
}

/** Drags the sash between the sidebar and the editor so descriptions are readable in a screenshot. */
export async function widenSidebar(page: Page, width: number): Promise<void> {
  const sidebar = await page.locator('#workbench\\.parts\\.sidebar').boundingBox();
  if (!sidebar || sidebar.width >= width - 10) return;
  const x = sidebar.x + sidebar.width;
  const y = sidebar.y + sidebar.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(sidebar.x + width, y, { steps: 8 });
  await page.mouse.up();
}

// ---- the editor ----

/** The editor of the active editor group. */
export const activeEditor = (page: Page): Locator =>
  page.locator('.editor-group-container.active .editor-instance .monaco-editor').first();

/** A line of the active editor holding `text`. */
export function editorLine(page: Page, text: string | RegExp): Locator {
  return activeEditor(page).locator('.view-line', { hasText: text }).first();
}

/**
 * The lines of the active editor as drawn (in document order, non-breaking spaces as spaces). Only lines in view are
 * drawn, which is all of them for the short documents of the tests.
 */
export async function editorLines(page: Page): Promise<string[]> {
  return activeEditor(page)
    .locator('.view-lines')
    .evaluate((el) =>
      [...el.querySelectorAll('.view-line')]
        .map((line) => ({
          top: Number(/top:\s*(-?[\d.]+)px/.exec(line.getAttribute('style') ?? '')?.[1] ?? 0),
          text: (line.textContent ?? '').replace(/\u00a0/g, ' '),
        }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text),
    );
}

/** The "Ln …, Col …" item of the status bar. */
const cursorStatus = (page: Page): Locator => page.locator('.statusbar-item', { hasText: /^Ln \d+, Col \d+/ }).first();

/** Puts the cursor at `line`:`column` (1-based) with Go to Line, and waits until the editor has it and the focus. */
export async function goTo(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+g');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await quickInputBox(page).fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await quickInputBox(page).waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  await page
    .locator('.editor-instance .monaco-editor.focused')
    .first()
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await cursorStatus(page)
    .filter({ hasText: new RegExp(`^Ln ${line}, Col ${column}$`) })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/**
 * Selects the text of line `line` from `column` to the end of the line less `suffix` characters, and checks that
 * `length` characters are selected.
 */
export async function selectToLineEnd(
  page: Page,
  line: number,
  column: number,
  suffix: number,
  length: number,
): Promise<void> {
  await goTo(page, line, column);
  await page.keyboard.press('Shift+End');
  for (let i = 0; i < suffix; i++) await page.keyboard.press('Shift+ArrowLeft');
  await cursorStatus(page)
    .filter({ hasText: `(${length} selected)` })
    .waitFor({ state: 'visible', timeout: UI_TIMEOUT });
}

/** A CodeLens of the active editor whose title contains `title`. */
export function codeLens(page: Page, title: string | RegExp): Locator {
  return activeEditor(page).locator('.codelens-decoration a', { hasText: title }).first();
}

// ---- output ----

/** Saves a screenshot of the page and checks that something substantial was written. */
export async function shoot(page: Page, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  assert.ok(fs.statSync(file).size > 10_000, `screenshot ${file} written`);
}

/** Runs a test body; on failure saves a screenshot to out/<name>.failed.png and prints the requests the emulator saw. */
export async function reportingFailure(
  page: Page,
  emulator: Emulator,
  name: string,
  run: () => Promise<void>,
): Promise<void> {
  try {
    await run();
  } catch (error) {
    await page.screenshot({ path: path.join(REPO_ROOT, 'out', `${name}.failed.png`) }).catch(() => undefined);
    process.stderr.write(
      `requests:\n${emulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join('\n')}\n`,
    );
    throw error;
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
