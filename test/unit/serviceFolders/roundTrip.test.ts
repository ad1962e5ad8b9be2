/**
 * Service folders against the emulator's sample data, in plain Node over loopback HTTP (no vscode): pull → plan shows
 * nothing to do; edits of three kinds → exactly those updates, each sent once, then nothing; a promote to another
 * service creates every resource with its references resolved there; a missing reference stops the plan before any
 * request. Once per connection kind.
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server';
import { ossData } from '../../emulator/oss/seed';
import { ObservabilityClient, RateLimiter, type ObservabilityApi } from '../../../src/api';
import { SelfHostedServiceClient, SELF_HOSTED_SERVICE_ID } from '../../../src/api/oss';
import { pulledFiles, type Snapshot } from '../../../src/serviceFolders/files';
import { planFolder, type FolderFile, type PlanOptions } from '../../../src/serviceFolders/plan';
import { applyFolderPlan } from '../../../src/serviceFolders/apply';
import { readSnapshot, writeClientOf } from '../../../src/serviceFolders/remote';
import { kindOfFile } from '../../../src/serviceFolders/layout';
import { buildJsonSchemas } from '../../../src/serviceFolders/jsonSchema';
import Ajv from 'ajv';

interface Side {
  emu: Emulator;
  client: ObservabilityApi;
  serviceId: string;
}

function cloudSide(emu: Emulator, index: number): Side {
  const client = new ObservabilityClient({
    connection: {
      baseUrl: emu.url,
      organizationId: emu.organizationId,
      serviceIds: emu.serviceIds,
      keyId: emu.keyId,
      pathSegment: 'observability',
    },
    getSecret: async () => emu.keySecret,
    limiter: new RateLimiter({ requests: 10_000, windowMs: 1000 }),
  });
  return { emu, client, serviceId: emu.serviceIds[index]! };
}

function ossSide(emu: Emulator): Side {
  const client = new SelfHostedServiceClient({
    connection: { baseUrl: emu.url },
    getSecret: () => emu.ossApiKey,
    limiter: new RateLimiter({ requests: 10_000, windowMs: 1000 }),
  });
  return { emu, client, serviceId: SELF_HOSTED_SERVICE_ID };
}

const asFiles = (pulled: ReturnType<typeof pulledFiles>): FolderFile[] =>
  pulled.map((f) => ({
    path: f.path,
    kind: kindOfFile(f.path.split('/').pop()!)!,
    value: JSON.parse(JSON.stringify(f.value)),
  }));

/** The ClickHouse connection of an emulated service (its team's one): what a promote maps the folder's to. */
const connectionOf = (emu: Emulator, serviceId: string): string => {
  const data = emu.flavor === 'oss' ? ossData(emu.state) : emu.state.data.get(serviceId)!;
  return [...data.connections.keys()][0]!;
};
const connectionMapFor = (snapshot: Snapshot, emu: Emulator, serviceId: string): Record<string, string> =>
  Object.fromEntries(snapshot.source.map((s) => [String(s.connection), connectionOf(emu, serviceId)]));

const actions = (plan: ReturnType<typeof planFolder>) =>
  plan.steps.filter((s) => s.action !== 'unchanged').map((s) => `${s.action} ${s.kind} ${s.name}`);

const writes = (emu: Emulator, from: number) =>
  emu.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path}`);

for (const flavor of ['cloud', 'oss'] as const) {
  describe(`service folders round trip (${flavor})`, () => {
    let home: Side;
    let other: Side;
    let emus: Emulator[] = [];
    let snapshot: Snapshot;
    let files: FolderFile[];
    const own = (label: string): PlanOptions => ({ ownTarget: true, prune: false, serviceLabel: label });

    before(async () => {
      if (flavor === 'cloud') {
        const emu = await startEmulator({ rateLimit: false });
        emus = [emu];
        home = cloudSide(emu, 0);
        other = cloudSide(emu, 2);
      } else {
        const a = await startEmulator({ flavor: 'oss', rateLimit: false });
        const b = await startEmulator({ flavor: 'oss', rateLimit: false, data: 'empty' });
        emus = [a, b];
        home = ossSide(a);
        other = ossSide(b);
      }
      snapshot = await readSnapshot(home.client, home.serviceId);
      files = asFiles(pulledFiles(snapshot));
    });
    after(async () => {
      for (const emu of emus) await emu.close();
    });

    it('pulls every resource into a file with references by name and no webhook secret, and plans no change', () => {
      const count = (Object.values(snapshot) as unknown[][]).reduce((n, list) => n + list.length, 0);
      assert.equal(files.length, count);
      const text = JSON.stringify(files.map((f) => f.value));
      for (const w of snapshot.webhook) {
        if (w.url && /hooks\.slack\.com/.test(w.url)) {
          assert.ok(!text.includes(w.url), 'a Slack URL token never reaches a file');
        }
      }
      const alert = files.find((f) => f.kind === 'alert' && (f.value as Record<string, unknown>).source === 'tile');
      assert.ok(alert, 'a tile alert');
      const value = alert.value as Record<string, unknown>;
      assert.equal(typeof value.dashboardName, 'string');
      assert.equal(typeof value.tileName, 'string');
      assert.ok(!('dashboardId' in value) && !('tileId' in value));
      const plan = planFolder(files, snapshot, own('home'));
      assert.deepEqual(plan.problems, []);
      assert.deepEqual(actions(plan), []);
      // The editor's JSON Schemas of the folder's files accept every pulled file the API can write (the sample data's
      // webhook of a kind the API does not write is flagged, as the plan refuses to send it).
      const schemas = buildJsonSchemas() as Record<string, object>;
      const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
      const schemaOf: Record<string, string> = {
        source: 'service-folder-source',
        savedSearch: 'service-folder-saved-search',
        webhook: 'service-folder-webhook',
        dashboard: 'service-folder-dashboard',
      };
      for (const file of files.filter((f) => f.kind !== 'alert')) {
        const validate = ajv.compile(schemas[schemaOf[file.kind]!]!);
        const writable =
          file.kind !== 'webhook' ||
          ['slack', 'incidentio', 'generic'].includes(String((file.value as Record<string, unknown>).service));
        assert.equal(validate(file.value), writable, `${file.path}: ${ajv.errorsText(validate.errors)}`);
      }
      const target = ajv.compile(schemas['service-folder-target']!);
      assert.ok(
        target({
          organizationId: '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14',
          serviceId: '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14',
        }),
      );
    });

    it('plans exactly the edited resources, applies each once, then plans nothing', async () => {
      const edited = files.map((f) => ({ ...f, value: structuredClone(f.value) as Record<string, unknown> }));
      const pick = (kind: string) => edited.find((f) => f.kind === kind)!.value as Record<string, unknown>;
      const dashboard = pick('dashboard');
      dashboard.tags = [...((dashboard.tags as string[] | undefined) ?? []), 'as-code'];
      const alert = edited.find(
        (f) =>
          f.kind === 'alert' &&
          typeof (f.value as Record<string, unknown>).threshold === 'number' &&
          typeof (f.value as Record<string, unknown>).name === 'string',
      )!.value as Record<string, unknown>;
      alert.threshold = (alert.threshold as number) + 7;
      const search = pick('savedSearch');
      search.where = 'SeverityText:error AND edited';
      const plan = planFolder(edited, snapshot, own('home'));
      assert.deepEqual(plan.problems, []);
      assert.deepEqual(
        actions(plan).sort(),
        [
          `update alert ${alert.name as string}`,
          `update dashboard ${dashboard.name as string}`,
          `update savedSearch ${search.name as string}`,
        ].sort(),
      );
      const dashboardStep = plan.steps.find((s) => s.kind === 'dashboard' && s.action === 'update')!;
      assert.deepEqual(
        dashboardStep.changes.map((c) => c.path),
        ['tags'],
      );
      const mark = home.emu.requests.length;
      const report = await applyFolderPlan(
        plan,
        edited,
        snapshot,
        own('home'),
        writeClientOf(home.client, home.serviceId),
      );
      assert.equal(report.requests, 3);
      assert.equal(writes(home.emu, mark).length, 3, writes(home.emu, mark).join('\n'));
      assert.ok(
        report.outcomes.every((o) => o.outcome === 'applied'),
        JSON.stringify(report.outcomes.map((o) => o.reason)),
      );
      const after = await readSnapshot(home.client, home.serviceId);
      assert.deepEqual(actions(planFolder(edited, after, own('home'))), []);
      snapshot = after;
      files = edited;
    });

    it('promotes the folder to another service: every resource created with its names resolved there, then nothing to do', async () => {
      const target = await readSnapshot(other.client, other.serviceId);
      const sourceUrls = new Map(snapshot.webhook.map((w) => [w.name, w.url ?? undefined]));
      const options: PlanOptions = {
        ownTarget: false,
        prune: false,
        serviceLabel: 'other',
        webhookUrl: (name) => sourceUrls.get(name),
        // The target has no source yet, so its ClickHouse connection is not known: given, as Promote asks for it.
        connectionMap: connectionMapFor(snapshot, other.emu, other.serviceId),
      };
      // A webhook of a kind the API does not write (the sample data has one) cannot be promoted: the plan says so
      // before anything is sent; without it (and the alerts that use it) the folder goes through.
      const refused = planFolder(files, target, options).problems;
      const unwritable = snapshot.webhook.filter(
        (w) => !['slack', 'incidentio', 'generic'].includes(String(w.service)),
      );
      assert.equal(refused.length, unwritable.length, JSON.stringify(refused));
      const names = new Set(unwritable.map((w) => w.name));
      const promoted = files.filter((f) => {
        const v = f.value as Record<string, unknown>;
        if (f.kind === 'webhook') return !names.has(v.name as string);
        const channels = [v.channel, ...((v.channels as unknown[]) ?? [])] as { webhookName?: string }[];
        return f.kind !== 'alert' || !channels.some((c) => c && names.has(c.webhookName ?? ''));
      });
      files = promoted;
      const plan = planFolder(files, target, options);
      assert.deepEqual(plan.problems, []);
      const mark = other.emu.requests.length;
      const report = await applyFolderPlan(plan, files, target, options, writeClientOf(other.client, other.serviceId));
      assert.deepEqual(
        report.outcomes.filter((o) => o.outcome !== 'applied').map((o) => `${o.step.kind} ${o.step.name}: ${o.reason}`),
        [],
      );
      assert.equal(writes(other.emu, mark).length, report.requests);
      const after = await readSnapshot(other.client, other.serviceId);
      // Applied again, the folder changes nothing but the fields the service said it does not keep for a kind of
      // resource (the sample data holds a few that the API drops on write): the apply named them.
      const notKept = report.outcomes.flatMap((o) =>
        (o.notKept ?? []).map((field) => `${o.step.kind} ${o.step.name} ${field}`),
      );
      const again = planFolder(files, after, options).steps.filter((s) => s.action !== 'unchanged');
      assert.deepEqual(
        again.flatMap((s) => s.changes.map((c) => `${s.kind} ${s.name} ${c.path}`)).sort(),
        notKept.filter((n) => again.some((s) => n.startsWith(`${s.kind} ${s.name} `))).sort(),
      );
      assert.ok(again.every((s) => s.action === 'update' && s.changes.every((c) => c.before === undefined)));
      // The alerts on tiles point at the new dashboards' tiles of the same names.
      for (const alert of after.alert.filter((a) => a.source === 'tile')) {
        const dashboard = after.dashboard.find((d) => d.id === alert.dashboardId);
        assert.ok(dashboard, `the dashboard of alert ${alert.name}`);
        assert.ok(
          dashboard.tiles.some((t) => t.id === alert.tileId),
          `the tile of alert ${alert.name}`,
        );
      }
      // Every file's resource is on the target now, beside the target's own.
      for (const kind of ['dashboard', 'alert', 'webhook', 'savedSearch', 'source'] as const) {
        const created = report.outcomes.filter((o) => o.step.kind === kind && o.step.action === 'create').length;
        assert.equal(after[kind].length, target[kind].length + created, kind);
        assert.equal(
          created,
          files.filter((f) => f.kind === kind).length - plan.steps.filter((s) => s.kind === kind && s.live).length,
          kind,
        );
      }
    });

    it('reports a reference that resolves to nothing before any request', async () => {
      const broken = files.map((f) => ({ ...f, value: structuredClone(f.value) as Record<string, unknown> }));
      const search = broken.find((f) => f.kind === 'savedSearch')!;
      delete (search.value as Record<string, unknown>).sourceId;
      (search.value as Record<string, unknown>).sourceName = 'No such source';
      const plan = planFolder(broken, snapshot, own('home'));
      assert.ok(
        plan.problems.some((p) => p.path === search.path && p.message.includes('"No such source"')),
        JSON.stringify(plan.problems),
      );
      const mark = home.emu.requests.length;
      await assert.rejects(
        applyFolderPlan(plan, broken, snapshot, own('home'), writeClientOf(home.client, home.serviceId)),
        /nothing was sent/,
      );
      assert.equal(home.emu.requests.length, mark);
    });
  });
}

describe('service folders: a failed write', () => {
  it('stops what depends on it, says what was and was not applied, and a second apply finishes the rest', async () => {
    const home = await startEmulator({ flavor: 'oss', rateLimit: false });
    const empty = await startEmulator({ flavor: 'oss', rateLimit: false, data: 'empty' });
    try {
      const from = ossSide(home);
      const to = ossSide(empty);
      const source = await readSnapshot(from.client, from.serviceId);
      const files = asFiles(pulledFiles(source));
      const options: PlanOptions = {
        ownTarget: false,
        prune: false,
        serviceLabel: 'empty',
        webhookUrl: (name) => source.webhook.find((w) => w.name === name)?.url ?? undefined,
        connectionMap: connectionMapFor(source, empty, SELF_HOSTED_SERVICE_ID),
      };
      const target = await readSnapshot(to.client, to.serviceId);
      const plan = planFolder(files, target, options);
      assert.deepEqual(plan.problems, []);
      const real = writeClientOf(to.client, to.serviceId);
      const failing = {
        ...real,
        create: async (kind: Parameters<typeof real.create>[0], body: Record<string, unknown>) => {
          if (kind === 'dashboard' && body.name === 'Checkout service') {
            throw new Error('Create dashboard failed: HTTP 500');
          }
          return real.create(kind, body);
        },
      };
      const report = await applyFolderPlan(plan, files, target, options, failing);
      const byOutcome = (outcome: string) =>
        report.outcomes.filter((o) => o.outcome === outcome).map((o) => `${o.step.kind} ${o.step.name}`);
      assert.deepEqual(byOutcome('failed'), ['dashboard Checkout service']);
      const skipped = report.outcomes.filter((o) => o.outcome === 'skipped');
      assert.ok(skipped.length > 0, 'the alerts on that dashboard are not sent');
      for (const o of skipped) {
        assert.equal(o.step.kind, 'alert');
        assert.equal(o.reason, 'dashboard "Checkout service" was not applied');
      }
      assert.ok(
        byOutcome('applied').some((s) => s.startsWith('dashboard ')),
        'the other dashboards are',
      );

      const after = await readSnapshot(to.client, to.serviceId);
      const rest = planFolder(files, after, options);
      // (Besides the fields the sample data's sources hold that the service does not keep: see the promote test.)
      assert.deepEqual(
        actions(rest)
          .filter((a) => a.startsWith('create'))
          .sort(),
        ['create dashboard Checkout service', ...skipped.map((o) => `create alert ${o.step.name}`)].sort(),
      );
      const finish = await applyFolderPlan(rest, files, after, options, real);
      assert.ok(finish.outcomes.every((o) => o.outcome === 'applied'));
      assert.equal(finish.requests, actions(rest).length);
      assert.deepEqual(
        actions(planFolder(files, await readSnapshot(to.client, to.serviceId), options)).filter((a) =>
          a.startsWith('create'),
        ),
        [],
      );
    } finally {
      await home.close();
      await empty.close();
    }
  });
});
