/**
 * The self-hosted deployment's view of the sample data: the first sample service's dashboards, alerts, sources,
 * webhooks and saved searches (the same seeded objects the Cloud flavor serves), made to fit what HyperDX OSS can
 * hold, plus the team and its members.
 */
import type { EmulatorState, JsonObject, ServiceData } from '../types';

/** Sample personal API key (HyperDX: Team Settings → API Keys), sent as `Authorization: Bearer <key>`. */
export const SAMPLE_OSS_API_KEY = '7d3f1a9c-5e2b-4c8d-a6f0-2b9e4d7c1a53';

export const SAMPLE_OSS_TEAM_NAME = 'Northwind Engineering';

export interface OssMember {
  id: string;
  email: string;
  name: string;
  isCurrentUser: boolean;
}

export interface OssInvitation {
  id: string;
  createdAt: string;
  email: string;
  name?: string;
  url: string;
}

/** Members of the sample team; the first one owns the sample API key. */
export const SAMPLE_OSS_MEMBERS: readonly OssMember[] = [
  { id: '65f1c2a9d4e8b7f3a1c9f301', email: 'dana.okafor@northwind.example', name: 'Dana Okafor', isCurrentUser: true },
  { id: '65f1c2a9d4e8b7f3a1c9f302', email: 'li.wen@northwind.example', name: 'Li Wen', isCurrentUser: false },
  { id: '65f1c2a9d4e8b7f3a1c9f303', email: 'sam.ruiz@northwind.example', name: 'Sam Ruiz', isCurrentUser: false },
];

export const SAMPLE_OSS_INVITATIONS: readonly OssInvitation[] = [
  {
    id: '65f1c2a9d4e8b7f3a1c9f401',
    createdAt: '2026-10-01T08:00:00.000Z',
    email: 'new.hire@northwind.example',
    name: 'New Hire',
    url: 'http://localhost:8080/join-team?token=emulated',
  },
];

/** Webhook services HyperDX OSS knows; Cloud-only ones (`slack_api`, `pagerduty_api`) become templated `generic` calls. */
const OSS_WEBHOOK_SERVICES = new Set(['slack', 'incidentio', 'generic']);
/** Alert intervals HyperDX OSS accepts (no `30s`). */
const OSS_INTERVALS = new Set(['1m', '5m', '15m', '30m', '1h', '6h', '12h', '1d']);

/** The service whose data the self-hosted flavor serves (the first sample service). */
export function ossData(state: EmulatorState): ServiceData {
  const first = state.services[0];
  const data = first ? state.data.get(first.id) : undefined;
  if (!data) throw new Error('The emulator state has no first service');
  return data;
}

/**
 * Makes the first service's data fit HyperDX OSS, in place: webhook channels only (`{type, webhookId}`: no email
 * channels, no Cloud extras such as `webhookService` or `severity`; an alert left without a channel is dropped), no
 * `30s` interval, and only the webhook services OSS has.
 */
export function adaptStateForOss(state: EmulatorState): void {
  const data = ossData(state);
  for (const w of data.webhooks.values()) {
    if (!OSS_WEBHOOK_SERVICES.has(w.service)) w.service = 'generic';
  }
  for (const a of [...data.alerts.values()]) {
    const channels: JsonObject[] = a.channels
      .filter((c) => c.type === 'webhook' && typeof c.webhookId === 'string')
      .map((c) => ({ type: 'webhook', webhookId: c.webhookId }));
    if (channels.length === 0) {
      data.alerts.delete(a.id);
      continue;
    }
    a.channels = channels;
    if (!OSS_INTERVALS.has(a.interval)) a.interval = '1m';
  }
}
