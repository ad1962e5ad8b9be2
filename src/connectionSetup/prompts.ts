import * as vscode from 'vscode';

/**
 * Small building blocks for multi-step input: an input box and a quick pick that show "step n of m", offer a Back
 * button after the first step, stay open when focus moves elsewhere (so a secret can be copied from a browser), and
 * report Back and Cancel distinctly.
 */

export const BACK = Symbol('back');
export type Back = typeof BACK;

export interface StepInfo {
  readonly title: string;
  readonly step: number;
  readonly totalSteps: number;
}

export interface InputStepOptions extends StepInfo {
  readonly value?: string;
  readonly prompt: string;
  readonly placeholder?: string;
  readonly password?: boolean;
  readonly validate?: (value: string) => string | undefined;
  /** Validate on every keystroke (default) or only when Enter is pressed (used for secrets). */
  readonly validateWhileTyping?: boolean;
}

/** Shows one input box. Resolves to the accepted text, BACK, or undefined when dismissed. */
export function inputStep(options: InputStepOptions): Promise<string | Back | undefined> {
  return new Promise((resolve) => {
    const input = vscode.window.createInputBox();
    const disposables: vscode.Disposable[] = [input];
    let settled = false;
    const finish = (result: string | Back | undefined) => {
      if (settled) return;
      settled = true;
      resolve(result);
      for (const d of disposables) d.dispose();
    };
    input.title = options.title;
    input.step = options.step;
    input.totalSteps = options.totalSteps;
    input.value = options.value ?? '';
    input.valueSelection = undefined;
    input.prompt = options.prompt;
    input.placeholder = options.placeholder;
    input.password = options.password ?? false;
    input.ignoreFocusOut = true;
    input.buttons = options.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    disposables.push(
      input.onDidTriggerButton((button) => {
        if (button === vscode.QuickInputButtons.Back) finish(BACK);
      }),
      input.onDidChangeValue((value) => {
        if (options.validateWhileTyping === false) {
          input.validationMessage = undefined;
          return;
        }
        input.validationMessage = options.validate?.(value);
      }),
      input.onDidAccept(() => {
        const message = options.validate?.(input.value);
        if (message) {
          input.validationMessage = message;
          return;
        }
        finish(input.value);
      }),
      input.onDidHide(() => finish(undefined)),
    );
    if (options.value && options.validateWhileTyping !== false) {
      input.validationMessage = options.validate?.(options.value);
    }
    input.show();
  });
}

export interface PickStepOptions<T extends vscode.QuickPickItem> extends StepInfo {
  readonly placeholder: string;
  /** Items, or a loader that fills the list while the pick shows a busy indicator. */
  readonly items: readonly T[] | ((signal: AbortSignal) => Promise<readonly T[]>);
  /** Placeholder shown while the loader runs. */
  readonly loadingPlaceholder?: string;
  /** Chooses the active item once items are known. */
  readonly active?: (item: T) => boolean;
  readonly matchOnDescription?: boolean;
  readonly matchOnDetail?: boolean;
}

/** Shows a single-choice quick pick. Resolves to the picked item, BACK, or undefined when dismissed. */
export function pickStep<T extends vscode.QuickPickItem>(options: PickStepOptions<T>): Promise<T | Back | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<T>();
    const abort = new AbortController();
    const disposables: vscode.Disposable[] = [pick];
    let settled = false;
    const finish = (result: T | Back | undefined) => {
      if (settled) return;
      settled = true;
      abort.abort();
      resolve(result);
      for (const d of disposables) d.dispose();
    };
    pick.title = options.title;
    pick.step = options.step;
    pick.totalSteps = options.totalSteps;
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = options.matchOnDescription ?? true;
    pick.matchOnDetail = options.matchOnDetail ?? false;
    pick.buttons = options.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    const fill = (items: readonly T[]) => {
      pick.items = items;
      const active = options.active ? items.find(options.active) : undefined;
      if (active) pick.activeItems = [active];
      pick.placeholder = options.placeholder;
      pick.busy = false;
      pick.enabled = true;
    };
    disposables.push(
      pick.onDidTriggerButton((button) => {
        if (button === vscode.QuickInputButtons.Back) finish(BACK);
      }),
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
        if (chosen && chosen.kind !== vscode.QuickPickItemKind.Separator) finish(chosen);
      }),
      pick.onDidHide(() => finish(undefined)),
    );
    if (typeof options.items === 'function') {
      pick.busy = true;
      pick.enabled = false;
      pick.placeholder = options.loadingPlaceholder ?? options.placeholder;
      pick.show();
      options.items(abort.signal).then(
        (items) => {
          if (!settled) fill(items);
        },
        () => {
          if (!settled) fill([]);
        },
      );
    } else {
      fill(options.items);
      pick.show();
    }
  });
}

export interface MultiPickStepOptions<T extends vscode.QuickPickItem> extends StepInfo {
  readonly placeholder: string;
  readonly items: readonly T[];
  readonly selected: (item: T) => boolean;
  /** Extra title-bar buttons; pressing one resolves to it. */
  readonly buttons?: readonly vscode.QuickInputButton[];
  /** Minimum number of items to pick before Enter is accepted. */
  readonly minimum?: number;
  /** Placeholder shown when Enter is pressed with too few items picked. */
  readonly tooFewPlaceholder?: string;
}

/** Shows a multi-select quick pick. Resolves to the picked items, BACK, a pressed extra button, or undefined. */
export function multiPickStep<T extends vscode.QuickPickItem>(
  options: MultiPickStepOptions<T>,
): Promise<T[] | Back | vscode.QuickInputButton | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<T>();
    const disposables: vscode.Disposable[] = [pick];
    let settled = false;
    const finish = (result: T[] | Back | vscode.QuickInputButton | undefined) => {
      if (settled) return;
      settled = true;
      resolve(result);
      for (const d of disposables) d.dispose();
    };
    pick.title = options.title;
    pick.step = options.step;
    pick.totalSteps = options.totalSteps;
    pick.canSelectMany = true;
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.placeholder = options.placeholder;
    pick.buttons = [...(options.step > 1 ? [vscode.QuickInputButtons.Back] : []), ...(options.buttons ?? [])];
    pick.items = options.items;
    pick.selectedItems = options.items.filter(options.selected);
    disposables.push(
      pick.onDidTriggerButton((button) => finish(button === vscode.QuickInputButtons.Back ? BACK : button)),
      pick.onDidAccept(() => {
        const chosen = [...pick.selectedItems];
        if (chosen.length < (options.minimum ?? 0)) {
          pick.placeholder = options.tooFewPlaceholder ?? options.placeholder;
          return;
        }
        finish(chosen);
      }),
      pick.onDidHide(() => finish(undefined)),
    );
    pick.show();
  });
}
