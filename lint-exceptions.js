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
 * Test files that write domain rows with SQL of their own. Tests make their rows through the
 * factories (packages/server/test/support/factories.ts); these files are about the database itself,
 * where the statement *is* the thing tested, or about a state no factory or API can make.
 */
export const testsWritingRows = [
  {
    file: 'packages/server/src/db/migrations.test.ts',
    reason: 'rows as they were before a migration, in the schema of then, to check what the migration makes of them',
  },
  {
    file: 'packages/server/src/db/migration-observations.test.ts',
    reason: 'rows in the pre-registry schema (vitals), to check the observations migration keeps them',
  },
  {
    file: 'packages/server/src/db/migration-partitions.test.ts',
    reason: 'rows in the tables as they were before monthly partitions, to check the migration keeps them in their months',
  },
  {
    file: 'packages/server/src/db/migration-sources.test.ts',
    reason: 'sources as they were before they belonged to an organization, to check where the migration puts them',
  },
  {
    file: 'packages/server/src/db/runtime-role.test.ts',
    reason: 'the runtime role trying to write the audit trail directly, which the database must refuse',
  },
  {
    file: 'packages/server/src/db/embedded.test.ts',
    reason: 'a table of its own (not a domain table) that must survive a restart of the embedded server',
  },
  {
    file: 'packages/server/src/modules/billing/billing.test.ts',
    reason:
      "the runtime role writing readings, time and snapshots of a closed month, which the database's triggers must refuse",
  },
  {
    file: 'packages/server/src/modules/ingestion/ingestion.test.ts',
    reason: 'planting a source with a cookie header or its own secret hash, which the database must refuse',
  },
  {
    file: 'packages/server/src/modules/audit/audit-chain.test.ts',
    reason: 'forging audit records behind the sealer, which verification must detect',
  },
  {
    file: 'packages/server/src/modules/fhir/fhir-conditional-create.test.ts',
    reason: "a concurrent request's identifier held in an open transaction, to race a conditional create",
  },
  {
    file: 'packages/server/src/identity/admin-and-tokens.test.ts',
    reason: "identity's own refresh-token row as a sign-in leaves it, for revocation at a known origin",
  },
  {
    file: 'packages/server/src/identity/account-safety.test.ts',
    reason: "identity's outbox with a message older than its retention, which no sign-in can back-date",
  },
  {
    file: 'packages/server/test/operations.test.ts',
    reason: 'a migration record from a newer release (bookkeeping, not a domain row), which start-up must refuse',
  },
];
