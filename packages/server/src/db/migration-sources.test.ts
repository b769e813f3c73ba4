import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { runMigrations } from './migrate.ts';

/**
 * Migration 0950 gives the sources made before it an organization: the only one when there is
 * one; when there are several nobody can tell which one a source served, so it stays without one
 * (and is refused until an admin chooses, as the ingestion tests show). It also folds the copies
 * of one reading that a sender stored under indexes 0..4 into one. Two databases of the schema
 * before 0950, with one and with two organizations, are upgraded.
 */
interface Upgraded {
  db: TestDatabase;
  organizations: number[];
  firstReading: number;
}
let one: Upgraded;
let two: Upgraded;

async function databaseBefore0950(organizationCount: number): Promise<Upgraded> {
  const db = await createTestDatabase({ empty: true });
  await runMigrations(db.ownerPool, { before: '0950' });
  const q = (text: string, values: unknown[] = []) => db.ownerPool.query(text, values);
  const organizations: number[] = (await q(`SELECT id FROM organizations ORDER BY id`)).rows.map((r) => r.id);
  while (organizations.length < organizationCount) {
    organizations.push(
      (await q(`INSERT INTO organizations (name) VALUES ($1) RETURNING id`, [`Clinic ${organizations.length}`])).rows[0]
        .id,
    );
  }
  const patient = (
    await q(`INSERT INTO patients (first_name, last_name, organization_id) VALUES ('Old', 'Source', $1) RETURNING id`, [
      organizations[0],
    ])
  ).rows[0].id;
  const device = (
    await q(`INSERT INTO devices (device_id, model, patient_id) VALUES ('CUFF-0950', 'BPM', $1) RETURNING id`, [
      patient,
    ])
  ).rows[0].id;
  const hash = Buffer.alloc(32, 7);
  await q(
    `INSERT INTO ingestion_sources (name, kind, auth_header, secret_hash) VALUES ('Old cloud', 'tenovi', 'x-tenovi-secret', $1)`,
    [hash],
  );
  await q(`INSERT INTO ingestion_sources (name, kind, secret_hash, can_read) VALUES ('Old EHR', 'fhir', $1, true)`, [
    hash,
  ]);
  // The same measurement as a sender that numbers its items sent it: five rows before 0950.
  const ids: number[] = [];
  for (const index of [0, 1, 2, 3, 4]) {
    ids.push(
      (
        await q(
          `INSERT INTO vitals (patient_id, device_id, source, created_at, systolic, diastolic, pulse, measurement_index)
           VALUES ($1, $2, 'CUFF-0950', '2026-10-20T08:00:00Z', 133, 84, 71, $3) RETURNING id`,
          [patient, device, index],
        )
      ).rows[0].id,
    );
  }
  expect(await runMigrations(db.ownerPool)).toContain('0950_machine_doors.sql');
  return { db, organizations, firstReading: Number(ids[0]) };
}

beforeAll(async () => {
  one = await databaseBefore0950(1);
  two = await databaseBefore0950(2);
}, 180_000);
afterAll(async () => {
  await one?.db.drop();
  await two?.db.drop();
});

const sourcesOf = async ({ db }: Upgraded) =>
  (
    await db.ownerPool.query<{ name: string; organization_id: number | null }>(
      `SELECT name, organization_id FROM ingestion_sources ORDER BY name`,
    )
  ).rows;

describe('migration 0950 on sources made before it', () => {
  it('gives every existing source the only organization', async () => {
    expect(await sourcesOf(one)).toEqual([
      { name: 'Old EHR', organization_id: one.organizations[0] },
      { name: 'Old cloud', organization_id: one.organizations[0] },
    ]);
  });

  it('leaves existing sources without an organization when there are several', async () => {
    expect(await sourcesOf(two)).toEqual([
      { name: 'Old EHR', organization_id: null },
      { name: 'Old cloud', organization_id: null },
    ]);
  });

  it('keeps one reading of the same reading stored five times under indexes 0..4', async () => {
    for (const upgraded of [one, two]) {
      const { rows } = await upgraded.db.ownerPool.query<{ id: string }>(
        `SELECT id FROM observations WHERE source = 'CUFF-0950'`,
      );
      expect(rows.map((r) => Number(r.id))).toEqual([upgraded.firstReading]);
    }
  });
});
