/**
 * Service folder benchmark, run inside the extension host: a folder of the first data service pulled, grown to 200
 * resources (saved searches added beside what the service holds), then planned and applied under the default rate
 * budget (10 requests per 10 s), and planned again. Requests are counted by the emulator.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { FolderPlan } from '../../src/serviceFolders/plan';
import type { ApplyResult } from '../../src/serviceFolders/service';

export interface ServiceFolderBenchConfig {
  readonly connectionId: string;
  readonly serviceId: string;
  /** Every request the emulator logged so far. */
  readonly requests: () => Promise<readonly { path: string }[]>;
  readonly setRateLimit: (requests: number, windowSeconds: number) => Promise<void>;
}

const RESOURCES = 200;

export async function measureServiceFolder(cfg: ServiceFolderBenchConfig): Promise<Record<string, unknown>> {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.tmpdir());
  const folder = vscode.Uri.joinPath(workspace, `bench-service-folder-${process.pid}`);
  await cfg.setRateLimit(10, 10);
  await vscode.commands.executeCommand('observability.pullServiceToFolder', {
    connectionId: cfg.connectionId,
    serviceId: cfg.serviceId,
    folder: folder.toString(),
    noPrompt: true,
  });
  const count = async (sub: string) => {
    try {
      return (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder, sub))).length;
    } catch {
      return 0;
    }
  };
  const subs = ['sources', 'saved-searches', 'webhooks', 'dashboards', 'alerts'];
  let pulled = 0;
  for (const sub of subs) pulled += await count(sub);
  const searches = vscode.Uri.joinPath(folder, 'saved-searches');
  const [first] = (await vscode.workspace.fs.readDirectory(searches)).map(([n]) => n);
  if (!first) throw new Error('the service has no saved search to copy');
  const template = JSON.parse(
    new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(searches, first))),
  ) as Record<string, unknown>;
  const added = Math.max(0, RESOURCES - pulled);
  for (let i = 0; i < added; i++) {
    const { id: _id, ...body } = template;
    const name = `Bench search ${String(i + 1).padStart(3, '0')}`;
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(searches, `${name}.savedsearch.json`),
      new TextEncoder().encode(`${JSON.stringify({ ...body, name, where: `bench:${i}` }, null, 2)}\n`),
    );
  }
  const args = { folder: folder.toString(), noPrompt: true };
  const timed = async <T>(fn: () => Thenable<T>) => {
    const before = (await cfg.requests()).length;
    const t = performance.now();
    const value = await fn();
    const ms = performance.now() - t;
    const requests = (await cfg.requests()).slice(before).filter((r) => !r.path.startsWith('/__emulator/')).length;
    return { value, ms: Math.round(ms), requests };
  };
  const plan = await timed(() => vscode.commands.executeCommand<FolderPlan>('observability.planServiceFolder', args));
  const apply = await timed(() =>
    vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', args),
  );
  const again = await timed(() => vscode.commands.executeCommand<FolderPlan>('observability.planServiceFolder', args));
  await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
  const changes = (p: FolderPlan) => p.steps.filter((s) => s.action !== 'unchanged').length;
  return {
    method:
      `a pulled folder of the first data service grown to ${RESOURCES} resources with new saved searches; ` +
      'plan = Plan Service Folder (the five lists), apply = Apply Service Folder (plans again, then one request per ' +
      'change) under the default rate budget of 10 requests per 10 s; requests = what the emulator received',
    resources: pulled + added,
    created: added,
    plan: { ms: plan.ms, requests: plan.requests, changes: changes(plan.value) },
    apply: {
      ms: apply.ms,
      requests: apply.requests,
      outcome: apply.value.outcome,
      writes: apply.value.report?.requests ?? 0,
    },
    secondPlan: { ms: again.ms, requests: again.requests, changes: changes(again.value) },
  };
}
