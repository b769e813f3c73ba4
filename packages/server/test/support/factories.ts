/**
 * The one place tests make and change rows: organizations, staff, patients, devices (with their
 * assignment), readings, notes, tracking entries, alerts, sessions and the rest, one file per
 * resource under factories/. Service tests, HTTP tests and e2e (on the portal's own database) all
 * use it.
 *
 * Rows are set-up, not the behaviour under test: they are written through the owning module's
 * repository where one fits, otherwise here, never in a test file. No factory goes through a
 * service, on purpose: a service writes audit records, and tests count those.
 *
 * Each factory fills what the test does not care about with unique values, so that tests name
 * only what they are about. Back-dating (`createdAt`, `assignedFrom`, a reading's `at`) is an
 * option of the factory, for tests of what happens to old data; a state a row reaches later (a
 * disabled user, an idle session, an expired token) has a helper named after that state.
 */
export { contextOf, unique, type Moment } from './factories/common.ts';
export * from './factories/alerts.ts';
export * from './factories/audit.ts';
export * from './factories/billing.ts';
export * from './factories/care.ts';
export * from './factories/devices.ts';
export * from './factories/exports.ts';
export * from './factories/identity.ts';
export * from './factories/ingestion.ts';
export * from './factories/migrations.ts';
export * from './factories/organizations.ts';
export * from './factories/patients.ts';
export * from './factories/readings.ts';
export * from './factories/sessions.ts';
export * from './factories/staff.ts';
export * from './factories/tokens.ts';
