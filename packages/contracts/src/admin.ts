import { Type, type Static } from 'typebox';
import { Role } from './roles.ts';
import { UserStatus } from './me.ts';
import { Timestamp, RowId } from './common.ts';
import { Device } from './devices.ts';
import { Organization, Provider } from './organizations.ts';

export const AdminUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Role,
  first_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.Union([Type.String(), Type.Null()]),
  organization_id: Type.Union([Type.Integer(), Type.Null()]),
  cognito_status: Type.Union([Type.String(), Type.Null()]),
  status: UserStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
  password_changed_at: Type.Union([Timestamp, Type.Null()]),
  mfa_enabled: Type.Boolean(),
});
export type AdminUser = Static<typeof AdminUser>;

/** Names and titles of staff: optional fields arrive omitted, null or blank (stored as null). */
const StaffName = Type.String({ minLength: 1, maxLength: 100 });
const OptionalStaffText = Type.Union([Type.String({ maxLength: 100 }), Type.Null()]);

/** POST /api/admin/users (spec section 7). */
export const CreateUserBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' }),
    first_name: StaffName,
    middle_name: Type.Optional(OptionalStaffText),
    last_name: StaffName,
    title: Type.Optional(OptionalStaffText),
    role: Type.String({ minLength: 1, maxLength: 50 }),
    organization_id: RowId(),
  },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const CreateUserResponse = Type.Object({ user: AdminUser, temp_password: Type.String() });
export type CreateUserResponse = Static<typeof CreateUserResponse>;

export const AdminUsersResponse = Type.Object({ users: Type.Array(AdminUser) });
export type AdminUsersResponse = Static<typeof AdminUsersResponse>;

/** Answer of resend-invite, enable and disable: the updated row, so the list updates in place. */
export const AdminUserResponse = Type.Object({ user: AdminUser });
export type AdminUserResponse = Static<typeof AdminUserResponse>;

/** POST /api/organizations; GET answers a bare array of Organization (patients.ts). */
export const CreateOrganizationBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type CreateOrganizationBody = Static<typeof CreateOrganizationBody>;
export const OrganizationsResponse = Type.Array(Organization);
export type OrganizationsResponse = Static<typeof OrganizationsResponse>;
/** GET /api/organizations/{id}/providers: a bare array of {id, name}. */
export const ProvidersResponse = Type.Array(Provider);
export type ProvidersResponse = Static<typeof ProvidersResponse>;

/** POST /api/devices; GET answers a bare array of Device (patients.ts). */
export const CreateDeviceBody = Type.Object(
  {
    device_id: Type.String({ minLength: 1, maxLength: 100 }),
    model: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    type: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CreateDeviceBody = Static<typeof CreateDeviceBody>;
export const DevicesResponse = Type.Array(Device);
export type DevicesResponse = Static<typeof DevicesResponse>;

/** Database inspector (GET /api/db/...). Withheld columns are named, never shown. */
export const DbTableParam = Type.Object(
  { table: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type DbTableParam = Static<typeof DbTableParam>;
export const DbTablesResponse = Type.Object({ tables: Type.Array(Type.String()) });
export type DbTablesResponse = Static<typeof DbTablesResponse>;
export const DbColumn = Type.Object({ name: Type.String(), type: Type.String(), nullable: Type.Boolean() });
export type DbColumn = Static<typeof DbColumn>;
export const DbSchemaResponse = Type.Object({
  table: Type.String(),
  columns: Type.Array(DbColumn),
  withheld: Type.Array(Type.String()),
});
export type DbSchemaResponse = Static<typeof DbSchemaResponse>;
export const DbSampleResponse = Type.Object({
  table: Type.String(),
  columns: Type.Array(Type.String()),
  rows: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  withheld: Type.Array(Type.String()),
  limit: Type.Integer(),
});
export type DbSampleResponse = Static<typeof DbSampleResponse>;
