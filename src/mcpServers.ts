/**
 * MCP server definitions for the editor's agent: every self-hosted ClickStack / HyperDX connection offers its
 * deployment's MCP endpoint (`<base URL>/api/mcp`, Streamable HTTP). The personal API key is added as a Bearer header
 * only in `resolveMcpServerDefinition`, when VS Code starts the server — read from SecretStorage then, never written
 * to settings, `mcp.json`, state or logs, and sent only to the connection's own origin. Managed ClickStack (Cloud)
 * connections get no definition: its MCP endpoint is not published yet (ClickStack's documentation lists it as
 * coming), so there is no address to give.
 *
 * Cheap on purpose: the thin entry registers this provider at activation and it reads the saved connections straight
 * from the extension's state (no features loaded); the key is asked for only when a server starts.
 */
import * as vscode from 'vscode';
import { needsPlainHttpConsent, settlePlainHttp } from './plainHttpGrant';

/** The provider's ID in `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'observability.mcpServers';

/** What the provider needs of a saved connection (the fields it reads of the stored entry). */
export interface McpConnection {
  readonly id: string;
  readonly label: string;
  readonly baseUrl: string;
  readonly kind?: string;
}

export interface McpSources {
  /** The saved connections. */
  list(): readonly McpConnection[];
  /** A connection's key, from SecretStorage. */
  secret(connectionId: string): Thenable<string | undefined>;
  /** Whether the tools and servers are switched on (`observability.agent.enabled`). */
  enabled(): boolean;
}

/**
 * The saved connections as stored (entries that lack a field are left out, and so are plain-http addresses of another
 * machine whose permission does not name their current address: the key never travels unencrypted unconfirmed).
 */
export function storedConnections(raw: unknown): McpConnection[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e: unknown) => {
    if (typeof e !== 'object' || e === null) return [];
    const { id, label, baseUrl, kind, allowPlainHttp, plainHttpOrigin } = e as Record<string, unknown>;
    if (typeof id !== 'string' || typeof baseUrl !== 'string') return [];
    if (needsPlainHttpConsent(baseUrl)) {
      const grant = settlePlainHttp({
        baseUrl,
        allowPlainHttp: allowPlainHttp === true,
        ...(typeof plainHttpOrigin === 'string' ? { plainHttpOrigin } : {}),
      });
      if (grant.allowPlainHttp !== true) return [];
    }
    return [
      { id, label: typeof label === 'string' ? label : id, baseUrl, ...(typeof kind === 'string' ? { kind } : {}) },
    ];
  });
}

/** `<base URL>/api/mcp` of a self-hosted deployment (query and fragment dropped), or undefined for another address. */
export function mcpUrlOf(baseUrl: string): vscode.Uri | undefined {
  try {
    const url = new URL(baseUrl.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (url.username || url.password) return undefined;
    return vscode.Uri.parse(`${url.origin}${url.pathname.replace(/\/+$/, '')}/api/mcp`);
  } catch {
    return undefined;
  }
}

/** The connection a definition stands for is kept in a map, never in the definition itself. */
export class McpDefinitions implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly owners = new WeakMap<vscode.McpHttpServerDefinition, string>();

  constructor(private readonly sources: McpSources) {}

  /** Connections were added, removed, renamed or moved: VS Code asks for the definitions again. */
  refresh(): void {
    this.changed.fire();
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    if (!this.sources.enabled()) return [];
    return this.sources.list().flatMap((c) => {
      if (c.kind !== 'selfHosted') return [];
      const uri = mcpUrlOf(c.baseUrl);
      if (!uri) return [];
      // The version follows the address: a connection moved elsewhere is a changed server.
      const definition = new vscode.McpHttpServerDefinition(
        vscode.l10n.t('Observability: {0}', c.label),
        uri,
        {},
        uri.toString(),
      );
      this.owners.set(definition, c.id);
      return [definition];
    });
  }

  async resolveMcpServerDefinition(
    server: vscode.McpHttpServerDefinition,
  ): Promise<vscode.McpHttpServerDefinition | undefined> {
    const id =
      this.owners.get(server) ??
      this.sources
        .list()
        .find((c) => mcpUrlOf(c.baseUrl)?.toString() === server.uri.toString() && c.kind === 'selfHosted')?.id;
    const connection = id ? this.sources.list().find((c) => c.id === id) : undefined;
    const uri = connection ? mcpUrlOf(connection.baseUrl) : undefined;
    // Only for a connection that still exists at the same address: the key never goes to another origin.
    if (!connection || !uri || uri.toString() !== server.uri.toString() || !this.sources.enabled()) return undefined;
    const secret = await this.sources.secret(connection.id);
    if (!secret) {
      throw new Error(
        vscode.l10n.t('The API key of "{0}" is missing; update it in the Observability view.', connection.label),
      );
    }
    server.headers = { ...server.headers, Authorization: `Bearer ${secret}` };
    return server;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
