import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { deviceListScope, mayAssignDevices, mayCreateDevice } from './devices.ts';

describe('devices policy', () => {
  it('lists every device for admins, a provider’s organization’s (and free ones) otherwise', () => {
    expect(deviceListScope(actor('admin', 2))).toBeNull();
    expect(deviceListScope(actor('provider', 2))).toBe(2);
    expect(deviceListScope(actor('provider', null))).toBe(-1);
  });

  it('leaves registering and assigning devices to admins', () => {
    expect(mayCreateDevice(actor('admin', null))).toBe(true);
    expect(mayCreateDevice(actor('provider', 2))).toBe(false);
    expect(mayAssignDevices(actor('admin', 2))).toBe(true);
    expect(mayAssignDevices(actor('provider', 2))).toBe(false);
  });
});
