import { AdminErrors, type CreateDeviceBody, type Device } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { badRequest, conflict } from '../../plugins/errors.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { audit } from '../audit/audit.service.ts';
import { insertDevice, listDevices } from './devices.repository.ts';

const blankToNull = (v: string | null | undefined): string | null => (v && v.trim() ? v.trim() : null);

/** The answer names patients (name and birth date), so each read is audited like patient data. */
export async function getDevices(db: pg.Pool, ctx: SignedInContext): Promise<Device[]> {
  // A provider without an organization sees only free devices: -1 matches no patient.
  const devices = await listDevices(db, ctx.actor.role === 'admin' ? null : (ctx.actor.organizationId ?? -1));
  await audit(db, ctx, {
    action: 'device.list',
    outcome: 'success',
    resourceType: 'device',
    details: { count: devices.length },
  });
  return devices;
}

export async function createDevice(db: pg.Pool, ctx: SignedInContext, body: CreateDeviceBody): Promise<Device> {
  const deviceId = body.device_id.trim();
  if (!deviceId) {
    await audit(db, ctx, { action: 'device.create', outcome: 'failure', resourceType: 'device', reason: 'device_id required' });
    throw badRequest(AdminErrors.deviceIdRequired);
  }
  const created = await withTransaction(db, async (tx) => {
    const device = await insertDevice(tx, { deviceId, model: blankToNull(body.model), type: blankToNull(body.type) });
    if (device) {
      await audit(tx, ctx, { action: 'device.create', outcome: 'success', resourceType: 'device', resourceId: device.id });
    }
    return device;
  });
  if (!created) {
    await audit(db, ctx, { action: 'device.create', outcome: 'failure', resourceType: 'device', reason: 'duplicate device_id' });
    throw conflict(AdminErrors.deviceExists);
  }
  return created;
}
