import { Emitter } from './emitter';
import { resourceDriftUri, type DriftResourceKind } from './driftUri';

/** One mark: a service, or one of its resources, differs from a service folder pulled from it. */
export interface DriftMark {
  readonly connectionId: string;
  readonly serviceId: string;
  /** The resource (none: the service itself). */
  readonly resource?: { readonly kind: DriftResourceKind; readonly id: string };
  /** The letter the Explorer shows (`M`). */
  readonly badge?: string;
  /** The words the Explorer's and Source Control's tooltip say ("Differs from checkout-prod: tags"). */
  readonly tooltip: string;
}

/**
 * The service folders' drift as the Observability tree shows it: the service folders publish every mark, the tree
 * reads them for its items' words. Built once by the wiring and passed to both, so neither imports the other.
 */
export class DriftMarks {
  private marks = new Map<string, DriftMark>();
  private readonly changed = new Emitter<readonly { connectionId: string; serviceId: string }[]>();
  /** Fires with the services whose marks changed. */
  readonly onDidChange = this.changed.event;

  /** Replaces every mark with these. */
  replace(next: readonly DriftMark[]): void {
    const before = this.marks;
    this.marks = new Map(next.map((m) => [resourceDriftUri(m.connectionId, m.serviceId, m.resource), m]));
    const services = new Map<string, { connectionId: string; serviceId: string }>();
    for (const [key, mark] of [...before, ...this.marks]) {
      const a = before.get(key);
      const b = this.marks.get(key);
      if (a?.tooltip === b?.tooltip && a?.badge === b?.badge) continue;
      services.set(resourceDriftUri(mark.connectionId, mark.serviceId), {
        connectionId: mark.connectionId,
        serviceId: mark.serviceId,
      });
    }
    if (services.size > 0) this.changed.fire([...services.values()]);
  }

  /** The mark of a service (no resource) or of one of its resources. */
  markOf(
    connectionId: string,
    serviceId: string,
    resource?: { readonly kind: DriftResourceKind; readonly id: string },
  ): DriftMark | undefined {
    return this.marks.get(resourceDriftUri(connectionId, serviceId, resource));
  }

  dispose(): void {
    this.changed.dispose();
  }
}
