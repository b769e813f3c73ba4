import { createOrganization, startTestServer, type ApiClient, type TestServer, signInNewStaff } from './app.ts';

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
  const insert = async (orgId: number) =>
    (
      await server.db.pool.query<{ id: number }>(
        `INSERT INTO patients (first_name, last_name, organization_id) VALUES ($1, 'Patient', $2) RETURNING id`,
        [firstName, orgId],
      )
    ).rows[0]!.id;
  return { server, provider, patientId: await insert(org.id), otherPatientId: await insert(other.id) };
}

/** The newest audit record of `action`: what the suites check after each call. */
export async function lastAuditOf(server: TestServer, action: string) {
  return (
    await server.db.pool.query(
      `SELECT outcome, resource_type, resource_id, details FROM audit_logs WHERE action = $1 ORDER BY id DESC LIMIT 1`,
      [action],
    )
  ).rows[0];
}
