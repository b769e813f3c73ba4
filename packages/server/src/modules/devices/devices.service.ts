import { AdminErrors, blankToNull, type CreateDeviceBody, type Device } from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { authorize } from '../../kernel/access.ts';
import { auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import { deviceListScope, mayCreateDevice } from '../../policies/devices.ts';
import { presentDevice } from './devices.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { insertDevice, listDevices, setPatientDevices } from './devices.repository.ts';

/** The answer names patients (name and birth date), so each read is audited like patient data. */
export async function getDevices(db: pg.Pool, ctx: SignedInContext): Promise<Device[]> {
  return auditedTransaction(db, ctx, async (tx) => {
    const devices = (await listDevices(tx, deviceListScope(ctx.actor))).map(presentDevice);
    await audit(tx, ctx, { action: 'device.list', outcome: 'success', resourceType: 'device', details: { count: devices.length } });
    return devices;
  });
}

/** Registers a device by its vendor id, which must be new (whatever its case or spacing). */
export async function createDevice(db: pg.Pool, ctx: SignedInContext, body: CreateDeviceBody): Promise<Device> {
  const action = 'device.create';
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayCreateDevice(ctx.actor), { action, resourceType: 'device', reason: 'devices are registered by admins' });
    const deviceId = body.device_id.trim();
    if (!deviceId) throw failure(400, AdminErrors.deviceIdRequired, { action, resourceType: 'device', reason: 'device_id required' });
    const row = await insertDevice(tx, { deviceId, model: blankToNull(body.model), type: blankToNull(body.type) });
    if (!row) throw failure(409, AdminErrors.deviceExists, { action, resourceType: 'device', reason: 'duplicate device_id' });
    await audit(tx, ctx, { action, outcome: 'success', resourceType: 'device', resourceId: row.id });
    return presentDevice(row);
  });
}

/**
 * Makes `deviceIds` exactly the patient's devices, in the caller's transaction (the patient form
 * saves them with the patient). A device of another patient moves here. Answers the ids that do
 * not exist (nothing changed then) and which devices moved from which patient.
 */
export async function assignDevicesToPatient(
  tx: Queryable,
  patientId: number,
  deviceIds: number[],
): Promise<{ unknown: number[]; moved: { device: number; from: number }[] }> {
  return setPatientDevices(tx, patientId, deviceIds);
}
