/** Small fetch helpers shared by the emulator tests. */
import { afterEach } from 'node:test';
import { describeResponseIssues, takeResponseIssues, type Emulator } from '../../emulator';

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const OBJECT_ID = /^[0-9a-f]{24}$/;

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

export function client(emu: Emulator, serviceIndex = 0, segment = 'observability') {
  const base = `${emu.url}/v1/organizations/${emu.organizationId}/services/${emu.serviceIds[serviceIndex]}/${segment}`;
  const auth = basicAuth(emu.keyId, emu.keySecret);
  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<CallResult> {
    const url = path.startsWith('http') ? path : path.startsWith('/v1') ? emu.url + path : base + path;
    const init: RequestInit = { method, headers: { authorization: auth, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(url, init);
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = {};
    }
    return { status: res.status, headers: res.headers, text, json };
  }
  return { base, auth, call };
}

export function resultOf<T = Record<string, unknown>>(r: CallResult): T {
  return r.json.result as T;
}

/** A minimal valid dashboard body with one tile of each given display type. */
export function dashboardBody(
  name: string,
  types: string[],
  sourceId = '65f5e4a3b9e77c001a111111',
): Record<string, unknown> {
  return {
    name,
    tiles: types.map((t, i) => ({
      id: `client-tile-${i}`,
      name: `${t} tile`,
      x: 0,
      y: i * 3,
      w: 12,
      h: 3,
      config:
        t === 'markdown'
          ? { displayType: 'markdown', markdown: '# Notes' }
          : { displayType: t, sourceId, select: [{ aggFn: 'count' }] },
    })),
  };
}

/**
 * Fails every test of the calling file during which an emulator sent a 200 response that does not fit the spec's
 * response schemas (call once at the top of a test file).
 */
export function failOnResponseIssues(): void {
  afterEach(() => {
    const issues = takeResponseIssues();
    if (issues.length > 0) {
      throw new Error(`The emulator sent responses that do not fit the API spec:\n${describeResponseIssues(issues)}`);
    }
  });
}
