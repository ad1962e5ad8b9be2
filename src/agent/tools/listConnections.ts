/** `observability_listConnections`: the saved connections, their kind, address and services with their state. */
import { cellText, tableText } from '../text';
import { servicesOf } from '../scope';
import type { ReadTool } from '../tool';

export const listConnections: ReadTool = {
  name: 'observability_listConnections',
  kind: 'read',
  running: () => 'Listing Observability connections',
  async run(_input, { deps }) {
    const list = deps.connections.list();
    const rows = list.flatMap((c) =>
      servicesOf(c).map((s) => [
        c.label,
        c.kind === 'selfHosted' ? 'self-hosted HyperDX' : 'Managed ClickStack',
        c.kind === 'selfHosted' ? c.baseUrl : (c.organizationName ?? c.organizationId),
        c.kind === 'selfHosted' ? '' : s.name,
        c.kind === 'selfHosted' ? '' : s.id,
        s.state ?? (c.kind === 'selfHosted' ? '' : 'unknown'),
      ]),
    );
    const empty = list.filter((c) => c.serviceIds.length === 0).map((c) => cellText(c.label));
    return {
      title: `Observability connections: ${list.length} saved.`,
      notes: [
        'Name a connection by its label (and a Cloud service by its name) in the other observability tools.',
        ...(empty.length > 0 ? [`Connections that show no service yet: ${empty.join(', ')}.`] : []),
      ],
      data: tableText({
        columns: ['connection', 'kind', 'organization or address', 'service', 'service ID', 'service state'],
        rows,
      }),
    };
  },
};
