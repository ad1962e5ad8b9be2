/** Request and response bodies shared by the API client tests. */
import type { AlertWrite } from '../../../src/schema';
import { ORG, SVC } from './helpers';

export const ALERTS_PATH = `/v1/organizations/${ORG}/services/${SVC}/observability/alerts`;
export const DASHBOARDS_PATH = `/v1/organizations/${ORG}/services/${SVC}/observability/dashboards`;

export const ALERT = {
  id: '65f0c0ffee0000000000a001',
  name: 'High error rate',
  state: 'OK',
  source: 'tile',
  dashboardId: '65f0c0ffee0000000000d001',
  tileId: '65f0c0ffee0000000000t001',
  threshold: 10,
  thresholdType: 'above',
  interval: '5m',
  channel: { type: 'webhook', webhookId: '65f0c0ffee0000000000w001' },
};

export function alertBody(): AlertWrite {
  return {
    source: 'tile',
    dashboardId: '65f0c0ffee0000000000d001',
    tileId: '65f0c0ffee0000000000t001',
    threshold: 10,
    thresholdType: 'above',
    interval: '1h',
    channel: { type: 'webhook', webhookId: '65f0c0ffee0000000000w001' },
    name: 'High error rate',
    message: 'Errors are above 10',
  } as AlertWrite;
}
