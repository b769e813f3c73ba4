/**
 * Drizzle table definitions mirroring migrations/0001_core.sql, for typed queries in
 * repositories. The SQL migrations are the source of truth; keep these in step with them.
 */
import { bigint, boolean, customType, date, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const roles = pgTable('roles', {
  name: text('name').primaryKey(),
  description: text('description').notNull(),
});

export const organizations = pgTable('organizations', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
});

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  email: text('email').notNull(),
  role: text('role').notNull().default('provider'),
  status: text('status').notNull().default('active'),
  firstName: text('first_name'),
  middleName: text('middle_name'),
  lastName: text('last_name'),
  title: text('title'),
  organizationId: integer('organization_id'),
  cognitoUsername: text('cognito_username'),
  cognitoSub: text('cognito_sub'),
  mfaEnabled: boolean('mfa_enabled').notNull().default(false),
  passwordChangedAt: tz('password_changed_at'),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

export const patients = pgTable('patients', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  firstName: text('first_name').notNull(),
  middleName: text('middle_name'),
  lastName: text('last_name').notNull(),
  dateOfBirth: date('date_of_birth', { mode: 'string' }),
  gender: text('gender'),
  organizationId: integer('organization_id').notNull(),
  primaryProviderId: integer('primary_provider_id'),
  enrolledRpm: boolean('enrolled_rpm').notNull().default(false),
  enrollmentStatus: text('enrollment_status'),
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

export const insurances = pgTable('insurances', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  patientId: integer('patient_id').notNull(),
  type: text('type').notNull(),
  providerName: text('provider_name'),
  policyNumber: text('policy_number'),
  policyholder: text('policyholder'),
  policyholderBirthdate: date('policyholder_birthdate', { mode: 'string' }),
});

export const devices = pgTable('devices', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  deviceId: text('device_id').notNull(),
  model: text('model'),
  type: text('type'),
  patientId: integer('patient_id'),
  createdAt: tz('created_at').notNull().defaultNow(),
});

export const vitals = pgTable('vitals', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  patientId: integer('patient_id').notNull(),
  deviceId: integer('device_id'),
  createdAt: tz('created_at').notNull().defaultNow(),
  systolic: smallint('systolic').notNull(),
  diastolic: smallint('diastolic').notNull(),
  pulse: smallint('pulse'),
});

export const notes = pgTable('notes', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  patientId: integer('patient_id').notNull(),
  authorId: integer('author_id'),
  content: text('content').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
});

export const trackingSessions = pgTable('tracking_sessions', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  patientId: integer('patient_id').notNull(),
  userId: integer('user_id'),
  date: date('date', { mode: 'string' }).notNull(),
  durationMinutes: integer('duration_minutes').notNull().default(0),
  notes: text('notes'),
  createdAt: tz('created_at').notNull().defaultNow(),
});

export const sessions = pgTable('sessions', {
  idHash: bytea('id_hash').primaryKey(),
  userId: integer('user_id').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
  lastSeenAt: tz('last_seen_at').notNull().defaultNow(),
  expiresAt: tz('expires_at').notNull(),
  revokedAt: tz('revoked_at'),
  ipAddress: text('ip_address'),
  userAgent: text('user_agent'),
  tokenJti: text('token_jti'),
  signInId: text('sign_in_id'),
  endReason: text('end_reason'),
});

export const auditLogs = pgTable('audit_logs', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  timestamp: tz('timestamp').notNull().defaultNow(),
  userId: integer('user_id'),
  ipAddress: text('ip_address'),
  action: text('action').notNull(),
  resourceType: text('resource_type'),
  resourceId: text('resource_id'),
  details: jsonb('details'),
  targetUserId: integer('target_user_id'),
  outcome: text('outcome').notNull(),
  reason: text('reason'),
  userAgent: text('user_agent'),
  requestId: text('request_id'),
});
