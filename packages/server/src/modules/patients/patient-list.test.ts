import { ENROLLMENT_STATUSES, type PatientList } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signInNewStaff, startTestServer, type ApiClient, type TestServer } from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildPatient } from '../../../test/support/factories.ts';
import { parseSearch } from './patients.service.ts';

let server: TestServer;
let admin: ApiClient;
let provider: ApiClient;
let orgA: { id: number };
let orgB: { id: number };

const people: [string, string, string | null, string | null, 'A' | 'B'][] = [
  ['José', 'Núñez', '1950-12-10', 'Active', 'A'],
  ['Jose', 'Abbott', '1961-03-04', 'Paused', 'A'],
  ['Élodie', 'Ørsted', '1972-07-07', 'Discharged', 'A'],
  ['Marta', 'Zimmermann', null, null, 'A'],
  ['Ann', 'Baker', '1950-01-02', 'Declined', 'A'],
  ['Bob', 'Marley_%', '1945-02-06', 'Active', 'A'],
  ['Josefine', 'Other', '1950-12-10', 'Active', 'B'],
];

beforeAll(async () => {
  server = await startTestServer();
  orgA = await createOrganization(server, 'Alpha Clinic');
  orgB = await createOrganization(server, 'Beta Clinic');
  admin = await signInNewStaff(server, 'admin', orgA.id);
  provider = await signInNewStaff(server, 'provider', orgA.id);
  for (const [first, last, dob, status, org] of people) {
    await buildPatient(server.db.pool, {
      firstName: first,
      lastName: last,
      dateOfBirth: dob,
      enrollmentStatus: status,
      organizationId: org === 'A' ? orgA.id : orgB.id,
    });
  }
});
afterAll(async () => server?.close());

const list = (client: ApiClient, query: string) => client.get<PatientList>(`/api/patients?${query}`);
const names = (res: { body: PatientList }) => res.body.items.map((p) => `${p.first_name} ${p.last_name}`);

describe('GET /api/patients: search, sort, filter and paging on the server', () => {
  it('pages with a total, sorted by last name by default', async () => {
    const first = await list(provider, 'limit=2&offset=0');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(6);
    expect(names(first)).toEqual(['Jose Abbott', 'Ann Baker']);
    const third = await list(provider, 'limit=2&offset=4');
    expect(names(third)).toEqual(['Élodie Ørsted', 'Marta Zimmermann']);
    const all = await list(provider, 'limit=100');
    expect(all.body.items.map((p) => p.id)).toEqual(
      [...first.body.items, ...(await list(provider, 'limit=2&offset=2')).body.items, ...third.body.items].map((p) => p.id),
    );
    const beyond = await list(provider, 'limit=10&offset=50');
    expect(beyond.body).toEqual({ items: [], total: 6 });
  });

  it('finds by name ignoring case and accents, every word matching the start of a name', async () => {
    expect(names(await list(provider, 'q=jose')).sort()).toEqual(['Jose Abbott', 'José Núñez']);
    expect(names(await list(provider, `q=${encodeURIComponent('JOSÉ')}`)).sort()).toEqual(['Jose Abbott', 'José Núñez']);
    expect(names(await list(provider, 'q=nunez'))).toEqual(['José Núñez']);
    expect(names(await list(provider, 'q=orsted%20elo'))).toEqual(['Élodie Ørsted']);
    expect(names(await list(provider, `q=${encodeURIComponent('núñez, josé')}`))).toEqual(['José Núñez']);
    // Inside a name does not match: a search is for the start of a first or last name.
    expect((await list(provider, 'q=ott')).body.total).toBe(0);
    // LIKE wildcards typed in the box match themselves only.
    expect((await list(provider, 'q=%25')).body.total).toBe(0);
    expect(names(await list(provider, 'q=marley_%25'))).toEqual(['Bob Marley_%']);
  });

  it('finds by date of birth, as YYYY-MM-DD, MM/DD/YYYY or a year', async () => {
    expect(names(await list(provider, 'q=1950-12-10'))).toEqual(['José Núñez']);
    expect(names(await list(provider, `q=${encodeURIComponent('12/10/1950')}`))).toEqual(['José Núñez']);
    expect(names(await list(provider, 'q=1950&sort=date_of_birth'))).toEqual(['Ann Baker', 'José Núñez']);
    expect((await list(provider, 'q=1950-02-30')).body.total).toBe(0);
  });

  it('sorts by date of birth and status in both directions, empty values last', async () => {
    expect(names(await list(provider, 'sort=date_of_birth&order=asc'))).toEqual([
      'Bob Marley_%',
      'Ann Baker',
      'José Núñez',
      'Jose Abbott',
      'Élodie Ørsted',
      'Marta Zimmermann',
    ]);
    expect(names(await list(provider, 'sort=date_of_birth&order=desc'))[0]).toBe('Élodie Ørsted');
    expect(names(await list(provider, 'sort=date_of_birth&order=desc')).at(-1)).toBe('Marta Zimmermann');
    const byStatus = (await list(provider, 'sort=status')).body.items.map((p) => p.enrollment_status);
    expect(byStatus).toEqual(['Active', 'Active', 'Declined', 'Discharged', 'Paused', null]);
    const byStatusDesc = (await list(provider, 'sort=status&order=desc')).body.items.map((p) => p.enrollment_status);
    expect(byStatusDesc).toEqual(['Paused', 'Discharged', 'Declined', 'Active', 'Active', null]);
    expect(names(await list(provider, 'order=desc'))[0]).toBe('Marta Zimmermann');
  });

  it('filters by status, or by no status', async () => {
    const active = await list(provider, 'status=Active');
    expect(active.body.total).toBe(2);
    expect(active.body.items.every((p) => p.enrollment_status === 'Active')).toBe(true);
    expect(names(await list(provider, 'status=none'))).toEqual(['Marta Zimmermann']);
    expect(names(await list(provider, 'status=Active&q=jos'))).toEqual(['José Núñez']);
  });

  it("keeps a provider to their organization's patients and shows an admin the organization", async () => {
    expect((await list(provider, 'q=josefine')).body.total).toBe(0);
    const found = await list(admin, 'q=josefine');
    expect(found.body.items).toEqual([expect.objectContaining({ first_name: 'Josefine', organization_name: 'Beta Clinic' })]);
    expect((await list(admin, 'q=1950-12-10')).body.total).toBe(2);
  });

  it('audits the list with what kind of search it was, never the typed text', async () => {
    await list(provider, 'q=nunez&status=Active');
    const record = await lastAuditOf(server, 'patient.list');
    expect(record).toMatchObject({ outcome: 'success', details: { search: 'name', status: 'Active', count: 1, total: 1 } });
    expect(JSON.stringify(record)).not.toContain('nunez');
    await list(provider, 'q=1950-12-10');
    expect(await lastAuditOf(server, 'patient.list')).toMatchObject({ details: { search: 'date_of_birth' } });
  });

  it('refuses unknown sorts, statuses, parameters and over-long searches', async () => {
    for (const q of ['sort=age', 'order=up', 'status=active', 'status=Enrolled', 'limit=0', 'limit=101', 'offset=-1', 'page=2', `q=${'a'.repeat(101)}`]) {
      expect((await list(provider, q)).status, q).toBe(400);
    }
  });
});

describe('parseSearch', () => {
  it('reads dates and words', () => {
    expect(parseSearch(' 1950-1-2 ')).toEqual({ nameWords: [], birthRange: { from: '1950-01-02', to: '1950-01-02' } });
    expect(parseSearch('2/29/2000')).toEqual({ nameWords: [], birthRange: { from: '2000-02-29', to: '2000-02-29' } });
    expect(parseSearch('2/29/2001').birthRange).toBeNull();
    expect(parseSearch('Smith, John  A')).toEqual({ nameWords: ['Smith', 'John', 'A'], birthRange: null });
    expect(parseSearch('a b c d e f g').nameWords).toHaveLength(5);
    expect(parseSearch('   ')).toEqual({ nameWords: [], birthRange: null });
  });
});

describe('enrollment status list', () => {
  it('is enforced by the database and by the API', async () => {
    await expect(
      buildPatient(server.db.pool, { firstName: 'X', lastName: 'Y', organizationId: orgA.id, enrollmentStatus: 'active' }),
    ).rejects.toThrow(/patients_enrollment_status_list/);
    const res = await provider.post('/api/patients', { first_name: 'X', last_name: 'Y', organization_id: orgA.id, enrollment_status: 'Enrolled' });
    expect(res.status).toBe(400);
    for (const status of ENROLLMENT_STATUSES) {
      const ok = await provider.post<{ enrollment_status: string }>('/api/patients', {
        first_name: 'S',
        last_name: status,
        organization_id: orgA.id,
        enrollment_status: status,
      });
      expect(ok.status).toBe(201);
      expect(ok.body.enrollment_status).toBe(status);
    }
  });

  it('shows the previous free text on the patient until a status is chosen', async () => {
    const id = await buildPatient(server.db.pool, {
      firstName: 'Leg',
      lastName: 'Acy',
      organizationId: orgA.id,
      enrollmentStatusLegacy: 'Waiting for cuff',
    });
    const read = await provider.get<{ enrollment_status_legacy: string | null }>(`/api/patients/${id}`);
    expect(read.body.enrollment_status_legacy).toBe('Waiting for cuff');
    // An update names every field of the patient (a missing one is refused, not cleared).
    const everyField = {
      first_name: 'Leg',
      middle_name: null,
      last_name: 'Acy',
      date_of_birth: null,
      gender: null,
      organization_id: orgA.id,
      primary_provider_id: null,
      enrolled_rpm: false,
    };
    const keep = await provider.put<{ enrollment_status_legacy: string | null }>(`/api/patients/${id}`, {
      ...everyField,
      enrollment_status: '',
    });
    expect(keep.body.enrollment_status_legacy).toBe('Waiting for cuff');
    const chosen = await provider.put<{ enrollment_status_legacy: string | null; enrollment_status: string }>(`/api/patients/${id}`, {
      ...everyField,
      enrollment_status: 'Paused',
    });
    expect(chosen.body).toMatchObject({ enrollment_status: 'Paused', enrollment_status_legacy: null });
  });
});
