/**
 * Shared parts of the UI tests (Playwright driving the real workbench in code-server): opening a workbench connected
 * to the emulator, and the steps that find and drive workbench parts. Every wait is on a concrete UI condition, with
 * generous limits, so a slow CI machine only makes the tests slower.
 *
 * Two ways to open a workbench with a connection:
 * - `setup`: the workbench runs out/test/e2e/workbenchSetup.js as its test entry, which adds the connection and then
 *   stays pending (extension-test mode: the workbench refuses modal dialogs);
 * - `demo`: the extension runs in development mode without a test entry and adds the connection from
 *   `$OBS_DEMO_CONNECTION` (src/demo.ts) once activated; modal dialogs show as they do for a user.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { Emulator } from '../emulator/server';
import { openWorkbench, REPO_ROOT, type Workbench } from '../host/runInCodeServer';

/** Limit of a wait on something drawn in the workbench. */
export const UI_TIMEOUT = 30_000;
/** Limit of the workbench start-up (code-server, browser, extension host). */
export const START_TIMEOUT = 120_000;

export interface TestWorkbenchOptions {
  readonly emulator: Emulator;
  /** Label of the connection. */
  readonly label: string;
  /** Services the connection shows (default: the first). */
  readonly serviceIds?: readonly string[];
  readonly mode: 'setup' | 'demo';
  /** Folder opened as the workspace (default: a temporary empty folder). */
  readonly workspace?: string;
  /** Settings besides the defaults of the UI tests (dark theme, no command center, no auto save). */
  readonly userSettings?: Record<string, unknown>;
}

/**
 * Opens a workbench with a connection to the emulator. In `setup` mode it resolves once the connection is added; in
 * `demo` mode once the workbench has drawn its status bar (the connection is added when the extension activates,
 * e.g. when the Observability view opens: see `showObservabilityView`).
 */
export async function openTestWorkbench(opts: TestWorkbenchOptions): Promise<Workbench> {
  const { emulator } = opts;
  const connection = JSON.stringify({
    baseUrl: emulator.url,
    keyId: emulator.keyId,
    keySecret: emulator.keySecret,
    organizationId: emulator.organizationId,
    serviceIds: opts.serviceIds ?? emulator.serviceIds.slice(0, 1),
    label: opts.label,
  });
  let ready: () => void = () => undefined;
  let failed: (error: Error) => void = () => undefined;
  const setupDone = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  const setup = opts.mode === 'setup';
  const workbench = await openWorkbench({
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
          env: { OBS_E2E_CONNECTION: connection },
          onLog: (line: string) => {
            if (line.includes('E2E SETUP READY')) ready();
            else if (process.env.OBS_TEST_VERBOSE) process.stdout.write(`${line}\n`);
          },
          onExit: (code: number) => failed(new Error(`the workbench setup exited with ${code}`)),
        }
      : { env: { OBS_DEMO_CONNECTION: connection } }),
  });
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

/** Polls `check` until it holds (for state outside the page, such as files on disk or the emulator's data). */
export async function until(check: () => boolean, message: string, ms = UI_TIMEOUT): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${message} (waited ${ms} ms)`);
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

export async function expand(page: Page, name: string | RegExp): Promise<void> {
  const row = treeRow(page, name);
  await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  await page.waitForFunction((el) => el?.getAttribute('aria-expanded') === 'true', await row.elementHandle(), {
    timeout: UI_TIMEOUT,
  });
}

/**
 * Clicks an item of the open context menu. A menu item reacts to clicks only once it has been shown for a moment
 * (100 ms in VS Code), so the click is repeated until the menu closes.
 */
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
 * the first service of the connection: the set-up the tree UI tests share.
 */
export async function openServiceInTree(emulator: Emulator, label: string): Promise<Workbench> {
  const workbench = await openTestWorkbench({ emulator, label, mode: 'demo' });
  try {
    await showObservabilityView(workbench.page, label);
    await expand(workbench.page, label);
    await expand(workbench.page, emulator.state.services[0]!.name);
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
