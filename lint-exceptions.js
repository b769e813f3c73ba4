/*
 * Known exceptions to the architecture rules in eslint.config.js, each with its reason. The list
 * is meant to shrink: remove an entry when its code is fixed (lint then keeps it fixed). Adding
 * one needs the same review as changing a rule.
 */

/** A module importing a private file of another module (normally only its index.ts). */
export const privateImports = [];

/** Files outside repositories and db/ that still send SQL themselves. */
export const sqlOutsideRepositories = [];

/**
 * Test files that write domain rows with SQL of their own (INSERT, UPDATE or DELETE, as text or with
 * the query builder). Tests make and change their rows through the factories
 * (packages/server/test/support/factories.ts); these files are about the database itself, where the
 * statement *is* the thing tested.
 */
export const testsWritingRows = [
  {
    file: 'packages/server/src/db/migrations.test.ts',
    reason:
      'rows as they were before a migration, in the schema of then, to check what the migration makes of them; and the owner trying to change or delete the audit trail, which the database must refuse',
  },
  {
    file: 'packages/server/src/db/migration-observations.test.ts',
    reason:
      'rows in the pre-registry schema (vitals), to check the observations migration keeps them, and a reading written and removed again to check the migrated ids go on from the old ones',
  },
  {
    file: 'packages/server/src/db/migration-audit-queue.test.ts',
    reason:
      "audit records and a sealer's queue entry without its record in the schema before migration 1080, to check the migration gives each entry a time",
  },
  {
    file: 'packages/server/src/db/migration-partitions.test.ts',
    reason:
      'rows in the tables as they were before monthly partitions, to check the migration keeps them in their months; references the keys must refuse or cascade on a delete; an audit record altered behind the triggers, which verification must catch',
  },
  {
    file: 'packages/server/src/db/migration-sources.test.ts',
    reason: 'sources as they were before they belonged to an organization, to check where the migration puts them',
  },
  {
    file: 'packages/server/src/db/runtime-role.test.ts',
    reason: 'the runtime role trying to write or change the audit trail directly, which the database must refuse',
  },
  {
    file: 'packages/server/src/db/embedded.test.ts',
    reason: 'a table of its own (not a domain table) that must survive a restart of the embedded server',
  },
  {
    file: 'packages/server/src/modules/billing/billing.test.ts',
    reason:
      "the runtime role writing, moving and deleting readings, time, closes and snapshots of a closed month, and enrollment changes, which the database's triggers must refuse (and the owner's repair they must let through)",
  },
  {
    file: 'packages/server/src/modules/ingestion/ingestion.test.ts',
    reason:
      'the runtime role planting a source with a cookie header or replacing a secret hash, which the database must refuse',
  },
  {
    file: 'packages/server/src/modules/audit/audit-chain.test.ts',
    reason:
      "forging, changing and deleting audit records behind the sealer, which verification must detect, the writes to the chain and the sealer's queue the database must refuse, and a burst of records in one statement, so that the queue is analyzed long",
  },
  {
    file: 'packages/server/src/modules/partitions/partitions.test.ts',
    reason:
      'the runtime role trying to empty a month table directly, and an audit record removed behind the triggers, which the database and verification must refuse',
  },
  {
    file: 'packages/server/src/modules/fhir/fhir-conditional-create.test.ts',
    reason: "a concurrent request's identifier held in an open transaction, to race a conditional create",
  },
  {
    file: 'packages/server/src/modules/billing/billing-reading-months.test.ts',
    reason:
      "readings, pauses, time zones and organizations changed directly, as any writer could, to check that the database's triggers keep the per-month billing inputs in step with them",
  },
  {
    file: 'packages/server/src/modules/partitions/observation-references.test.ts',
    reason:
      "references to readings written and changed directly, to check that the database's reference triggers (which replaced foreign keys on the partitioned readings) refuse a missing reading in any month",
  },
  {
    file: 'packages/server/src/modules/organizations/observation-retention.test.ts',
    reason: 'a retention shorter than the floor written directly by the owner, which the database CHECK must refuse',
  },
];
