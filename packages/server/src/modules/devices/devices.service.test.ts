import { AdminErrors } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../policies/actor.ts';
import { refusalOf } from '../../../test/support/audit.ts';
import { buildDevice, buildOrganization, buildPatient, buildStaff, contextOf } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { createDevice, getDevices } from './devices.service.ts';

const db = serviceDatabase();
let admin: Actor;
let provider: Actor;
let own: number;
let other: number;
let free: number;

beforeAll(async () => {
  const org = (await buildOrganization(db.pool)).id;
  const otherOrg = (await buildOrganization(db.pool)).id;
  admin = await buildStaff(db.pool, 'admin');
  provider = await buildStaff(db.pool, 'provider', { organizationId: org });
  own = await buildDevice(db.pool, { patientId: await buildPatient(db.pool, { organizationId: org }) });
  other = await buildDevice(db.pool, { patientId: await buildPatient(db.pool, { organizationId: otherOrg }) });
  free = await buildDevice(db.pool);
});

describe('devices', () => {
  it('shows a provider the free devices and their own patients’ only, an admin all', async () => {
    const ids = async (actor: Actor) => (await getDevices(db.pool, contextOf(actor))).map((d) => d.id).sort((a, b) => a - b);
    expect(await ids(provider)).toEqual([own, free].sort((a, b) => a - b));
    expect(await ids(admin)).toEqual([own, other, free].sort((a, b) => a - b));
  });

  it('registers a trimmed, new device id; a taken one (any case) or a blank one is refused and recorded', async () => {
    const created = await createDevice(db.pool, contextOf(admin), { device_id: '  Cuff-77 ', model: ' ', type: 'BP' });
    expect(created).toMatchObject({ device_id: 'Cuff-77', model: null, type: 'BP', patient: null });
    const dup = await refusalOf(db.pool, admin, (ctx) => createDevice(db.pool, ctx, { device_id: 'cuff-77' }));
    expect(dup).toMatchObject({ status: 409, message: AdminErrors.deviceExists });
    expect(dup.audits).toEqual([expect.objectContaining({ outcome: 'failure', reason: 'duplicate device_id' })]);
    expect((await refusalOf(db.pool, admin, (ctx) => createDevice(db.pool, ctx, { device_id: '  ' }))).message).toBe(
      AdminErrors.deviceIdRequired,
    );
  });

  it('leaves registration to admins, recorded as denied', async () => {
    const r = await refusalOf(db.pool, provider, (ctx) => createDevice(db.pool, ctx, { device_id: 'X-1' }));
    expect(r.status).toBe(403);
    expect(r.audits).toEqual([expect.objectContaining({ action: 'device.create', outcome: 'denied' })]);
  });
});
