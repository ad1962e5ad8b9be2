/** Roles (cloud API): list (one request), get, create, update, delete. Predefined roles cannot be changed. */
import {
  roleCreateSchema,
  roleSchema,
  roleUpdateSchema,
  type Role,
  type RoleCreate,
  type RoleUpdate,
} from '../../schema';
import type { ApiResponse, ListResponse, RequestOptions } from '../engine';
import {
  createResource,
  deleteResource,
  getResource,
  listResources,
  updateResource,
  type ServiceContext,
} from './common';

const ID = 'roleId';

/** All roles, predefined ones included. The API declares no paging here: one request. */
export async function listRoles(ctx: ServiceContext, opts?: RequestOptions): Promise<ListResponse<Role>> {
  return listResources(ctx, 'List roles', 'roles', roleSchema, undefined, opts);
}

export async function getRole(ctx: ServiceContext, id: string, opts?: RequestOptions): Promise<ApiResponse<Role>> {
  return getResource(ctx, 'Get role', 'roles', ID, id, roleSchema, opts);
}

export async function createRole(
  ctx: ServiceContext,
  body: RoleCreate,
  opts?: RequestOptions,
): Promise<ApiResponse<Role>> {
  return createResource(ctx, 'Create role', 'roles', roleCreateSchema, body, roleSchema, opts);
}

/** Replaces the permissions of a role (and its name or description when given). */
export async function updateRole(
  ctx: ServiceContext,
  id: string,
  body: RoleUpdate,
  opts?: RequestOptions,
): Promise<ApiResponse<Role>> {
  return updateResource(ctx, 'Update role', 'roles', ID, id, roleUpdateSchema, body, roleSchema, opts);
}

/** Deletes a role; refused for predefined roles, the default role and roles assigned to users. */
export async function deleteRole(ctx: ServiceContext, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
  return deleteResource(ctx, 'Delete role', 'roles', ID, id, opts);
}
