/** Roles (cloud API): list (one request), get, create, update, delete. Predefined roles cannot be changed. */
import {
  roleCreateSchema,
  roleSchema,
  roleUpdateSchema,
  type Role,
  type RoleCreate,
  type RoleUpdate,
} from '../../schema';
import { resourceEndpoints } from './common';

const roles = resourceEndpoints<Role, RoleCreate, RoleUpdate>({
  kind: 'roles',
  noun: 'role',
  plural: 'roles',
  idName: 'roleId',
  item: roleSchema,
  create: roleCreateSchema,
  update: roleUpdateSchema,
});

/** All roles, predefined ones included. The API declares no paging here: one request. */
export const listRoles = roles.list;
export const getRole = roles.get;
export const createRole = roles.create;
/** Replaces the permissions of a role (and its name or description when given). */
export const updateRole = roles.update;
/** Deletes a role; refused for predefined roles, the default role and roles assigned to users. */
export const deleteRole = roles.delete;
