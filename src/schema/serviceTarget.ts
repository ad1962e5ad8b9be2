import type * as z from 'zod';

/** The fields of a file (an alert file, a service folder's target file) that name the service it belongs to. */
export interface ServiceTargetFields {
  readonly organizationId?: string | undefined;
  readonly serviceId?: string | undefined;
  readonly baseUrl?: string | undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The check of a file's target, shared by every file that names its service: a self-hosted deployment by its
 * `baseUrl` (an http(s) URL), or a Cloud service by `organizationId` and `serviceId` — not both, and not the
 * organization ID self-hosted connections are given internally (`selfHostedOrganizationId`).
 */
export function checkServiceTarget(
  file: ServiceTargetFields,
  ctx: z.RefinementCtx,
  selfHostedOrganizationId: string,
): void {
  const cloud = file.organizationId !== undefined || file.serviceId !== undefined;
  if (file.baseUrl !== undefined) {
    if (cloud) {
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message: 'name either a self-hosted deployment (baseUrl) or a Cloud service (organizationId, serviceId)',
      });
    } else if (!isHttpUrl(file.baseUrl)) {
      ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'must be an http(s) URL' });
    }
    return;
  }
  for (const key of ['organizationId', 'serviceId'] as const) {
    if (file[key] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `${key} is required (or baseUrl for a self-hosted deployment)`,
      });
    }
  }
  if (file.organizationId?.toLowerCase() === selfHostedOrganizationId) {
    ctx.addIssue({ code: 'custom', path: ['organizationId'], message: 'name a self-hosted deployment by its baseUrl' });
  }
}
