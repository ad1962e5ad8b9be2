/**
 * Tools for the editor's agent (`contributes.languageModelTools`): read the connections, alerts, dashboards, tiles,
 * tables and events of every saved connection, run read-only SQL, plan the workspace's alert files, and — after the
 * confirmation VS Code shows — create an alert or apply the alert plan. The thin entry registers a stand-in for each
 * contributed tool at activation (`src/lazyTools.ts`); it hands each call to `prepare` and `invoke` here.
 *
 * - Switched off as a whole by `observability.agent.enabled` (the tools then also leave the agent's tool list).
 * - In an untrusted workspace, tools that read the workspace's files or change anything are refused.
 * - Write tools: `prepare` works out exactly what would be sent and VS Code asks the user with that text; `invoke`
 *   sends only what was shown (kept from `prepare` for the same input). Declined, nothing is sent; invoked without
 *   a confirmation, nothing is sent either.
 * - Every result is bounded plain text with the service's data framed as untrusted (./text.ts), free of secrets.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import type { ToolHost } from '../lazyTools';
import { ScopeError } from './scope';
import { framedText, type ToolText } from './text';
import type { AgentDeps, AgentTool, PlannedWrite, ToolContext } from './tool';
import { applyAlertPlan } from './tools/applyAlertPlan';
import { createAlert } from './tools/createAlert';
import { describeTables } from './tools/describeTables';
import { getAlert } from './tools/getAlert';
import { getTrace } from './tools/getTrace';
import { listAlerts } from './tools/listAlerts';
import { listConnections } from './tools/listConnections';
import { listDashboards } from './tools/listDashboards';
import { planResourceFiles } from './tools/planResourceFiles';
import { previewTile } from './tools/previewTile';
import { runSql } from './tools/runSql';
import { searchEvents } from './tools/searchEvents';

export type { AgentDeps } from './tool';

export const AGENT_SETTING = 'agent.enabled';

export const TOOLS: readonly AgentTool[] = [
  listConnections,
  listAlerts,
  getAlert,
  listDashboards,
  previewTile,
  describeTables,
  runSql,
  searchEvents,
  getTrace,
  planResourceFiles,
  createAlert,
  applyAlertPlan,
];

/** How long a confirmed write waits for its invocation. */
const PENDING_MS = 10 * 60_000;

/**
 * The tools, for the entry's stand-ins (`ToolHost`): `prepare` is VS Code's `prepareInvocation` (the progress message
 * and, for a write, the confirmation naming what is sent); `invoke` runs after the user confirmed. A write runs only
 * when `fromChat` (the call carries an invocation token): outside a chat (another extension calling
 * `vscode.lm.invokeTool`) VS Code shows no confirmation, so nothing is sent.
 */
export interface AgentApi extends ToolHost {
  readonly toolNames: readonly string[];
}

function inputOf(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

export function registerAgent(context: vscode.ExtensionContext, deps: AgentDeps): AgentApi {
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  /** Writes shown for confirmation (or answers that need none), by tool and input, until invoked. */
  const pending = new Map<string, { at: number; write?: PlannedWrite; answer?: ToolText }>();
  const keyOf = (name: string, input: unknown) => `${name}\u0000${JSON.stringify(input ?? null)}`;
  context.subscriptions.push({ dispose: () => pending.clear() });

  const enabled = () => vscode.workspace.getConfiguration('observability').get<boolean>(AGENT_SETTING, true);
  const result = (text: ToolText) =>
    new vscode.LanguageModelToolResult([
      new vscode.LanguageModelTextPart(framedText(text, deps.connections.secretsInUse())),
    ]);

  /** Why the tool may not run here and now, if it may not. */
  function refusal(tool: AgentTool | undefined, name: string): ToolText | undefined {
    if (!tool) return { title: `Refused: there is no Observability tool named ${name}.` };
    if (!enabled()) {
      return {
        title:
          'Refused: the Observability tools are switched off (setting observability.agent.enabled). Nothing was sent.',
      };
    }
    if (!vscode.workspace.isTrusted && (tool.kind === 'write' || tool.workspace)) {
      return {
        title:
          'Refused: this workspace is not trusted, so Observability tools do not read its files or change anything. Nothing was sent. The user can trust the workspace to allow it.',
      };
    }
    return undefined;
  }

  async function safely(name: string, work: () => Promise<ToolText>): Promise<ToolText> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ScopeError || error instanceof RangeError) return { title: error.message };
      deps.log.warn(`Agent tool ${name} failed: ${errorMessage(error)}`);
      return { title: `${name} failed.`, data: errorMessage(error) };
    }
  }

  return {
    toolNames: TOOLS.map((t) => t.name),

    async prepare(name, rawInput, token) {
      const tool = byName.get(name);
      const input = inputOf(rawInput);
      const key = keyOf(name, rawInput);
      const now = Date.now();
      for (const [k, v] of pending) if (now - v.at > PENDING_MS) pending.delete(k);
      pending.delete(key);
      if (!tool || tool.kind === 'read' || refusal(tool, name)) {
        return { invocationMessage: tool ? tool.running(input) : name };
      }
      const ctx: ToolContext = { deps, token };
      let planned: PlannedWrite | ToolText;
      try {
        planned = await tool.plan(input, ctx);
      } catch (error) {
        planned =
          error instanceof ScopeError
            ? { title: error.message }
            : { title: `${name} failed.`, data: errorMessage(error) };
      }
      if (!('send' in planned)) {
        // Nothing would be sent: the answer needs no confirmation.
        pending.set(key, { at: now, answer: planned });
        return { invocationMessage: tool.running(input) };
      }
      pending.set(key, { at: now, write: planned });
      const message = new vscode.MarkdownString(planned.message);
      message.isTrusted = false;
      message.supportHtml = false;
      return {
        invocationMessage: tool.running(input),
        confirmationMessages: { title: planned.title, message },
      };
    },

    async invoke(name, rawInput, token, fromChat) {
      const tool = byName.get(name);
      const input = inputOf(rawInput);
      const refused = refusal(tool, name);
      if (refused || !tool) return result(refused ?? { title: name });
      deps.log.info(`Agent tool ${name} invoked`);
      const ctx: ToolContext = { deps, token };
      if (tool.kind === 'read') return result(await safely(name, () => tool.run(input, ctx)));
      const key = keyOf(name, rawInput);
      const prepared = pending.get(key);
      pending.delete(key);
      const fresh = prepared !== undefined && Date.now() - prepared.at <= PENDING_MS;
      // An answer that sends nothing (e.g. the body's problems) is given wherever the call came from.
      if (fresh && prepared.answer) return result(prepared.answer);
      if (!fromChat) {
        return result({
          title:
            'Refused: Observability tools change something only when called from a chat, where the user confirms the change first. Nothing was sent.',
        });
      }
      if (!fresh || !prepared.write) {
        return result({
          title:
            'Refused: this change was not confirmed by the user, so nothing was sent. Ask again to get the confirmation.',
        });
      }
      const write = prepared.write;
      return result(await safely(name, () => write.send(ctx)));
    },
  };
}
