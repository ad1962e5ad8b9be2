/**
 * Stand-ins for the language-model tools the extension contributes: VS Code activates the extension for a tool call
 * (`onLanguageModelTool:<name>`) and expects the tool registered at once, while the tools themselves live in the
 * editor features' bundle. Each stand-in loads that bundle on its first call and hands the call over.
 */
import * as vscode from 'vscode';

export interface ToolHost {
  prepare(name: string, input: unknown, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation>;
  invoke(
    name: string,
    input: unknown,
    token: vscode.CancellationToken,
    fromChat: boolean,
  ): Promise<vscode.LanguageModelToolResult>;
}

/** The names in `contributes.languageModelTools`. */
export function contributedToolNames(packageJSON: unknown): string[] {
  const tools = (packageJSON as { contributes?: { languageModelTools?: { name?: unknown }[] } }).contributes
    ?.languageModelTools;
  return Array.isArray(tools) ? tools.flatMap((t) => (typeof t.name === 'string' ? [t.name] : [])) : [];
}

export function registerToolStandIns(names: readonly string[], host: () => ToolHost): vscode.Disposable {
  const registrations = names.map((name) =>
    vscode.lm.registerTool<unknown>(name, {
      prepareInvocation: (options, token) => host().prepare(name, options.input, token),
      // Only a call from a chat carries an invocation token: there VS Code has asked the user before a write.
      invoke: (options, token) => host().invoke(name, options.input, token, options.toolInvocationToken !== undefined),
    }),
  );
  return vscode.Disposable.from(...registrations);
}
