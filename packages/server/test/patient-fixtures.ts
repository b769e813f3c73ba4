import { kysely } from '../src/db/kysely.ts';
import { createOrganization, startTestServer, type ApiClient, type TestServer, signInNewStaff } from './app.ts';
import { buildPatient } from './support/factories.ts';

/** A running portal with a signed-in provider, a patient of their organization and one of another. */
export interface PatientFixture {
  server: TestServer;
  provider: ApiClient;
  patientId: number;
  otherPatientId: number;
}

/** Starts the portal and creates the fixture; `firstName` tells the suites' patients apart. */
export async function startPatientFixture(firstName: string): Promise<PatientFixture> {
  const server = await startTestServer();
  const org = await createOrganization(server);
  const other = await createOrganization(server);
  const provider = await signInNewStaff(server, 'provider', org.id);
  const insert = (organizationId: number) => buildPatient(server.db.pool, { organizationId, firstName, lastName: 'Patient' });
  return { server, provider, patientId: await insert(org.id), otherPatientId: await insert(other.id) };
}

/** The newest audit record of `action`: what the suites check after each call. */
export async function lastAuditOf(server: TestServer, action: string) {
  return kysely(server.db.pool)
    .selectFrom('audit_logs')
    .select(['outcome', 'resource_type', 'resource_id', 'details'])
    .where('action', '=', action)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
}
