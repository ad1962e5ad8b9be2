/** Alerts: list (paged by `limit`/`offset`), get, create, update, delete. */
import { alertSchema, alertWriteSchema, type Alert, type AlertWrite } from '../../schema';
import { resourceEndpoints } from './common';

const alerts = resourceEndpoints<Alert, AlertWrite>({
  kind: 'alerts',
  noun: 'alert',
  plural: 'alerts',
  idName: 'alertId',
  item: alertSchema,
  create: alertWriteSchema,
});

/**
 * All alerts, page by page (`limit`/`offset`): until the reported `totalCount` is reached, else until an empty page
 * (a short page does not end the list).
 */
export const listAlerts = alerts.listPaged;
export const getAlert = alerts.get;
export const createAlert = alerts.create;
export const updateAlert = alerts.update;
export const deleteAlert = alerts.delete;
