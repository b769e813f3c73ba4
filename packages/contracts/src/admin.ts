import { Type, type Static } from 'typebox';
import { Role } from './roles.ts';
import { UserStatus } from './me.ts';
import { Timestamp } from './common.ts';

export const AdminUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Role,
  cognito_status: Type.Union([Type.String(), Type.Null()]),
  status: UserStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
  password_changed_at: Type.Union([Timestamp, Type.Null()]),
  mfa_enabled: Type.Boolean(),
});
export type AdminUser = Static<typeof AdminUser>;
