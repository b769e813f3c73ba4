import { describe, expect, it } from 'vitest';
import { actorOf } from '../../test/support/actors.ts';
import { alertListScope, streamHearsAlert, mayEditAlertSettings, mayReadAlertSettings, maySetPatientThresholds, mayWorkAlert } from './alerts.ts';

const actor = actorOf;

describe('alert policies', () => {
  it('lets admins work every alert and providers only their organization’s', () => {
    expect(mayWorkAlert(actor('admin', null), { organization_id: 7 })).toBe(true);
    expect(mayWorkAlert(actor('provider', 7), { organization_id: 7 })).toBe(true);
    expect(mayWorkAlert(actor('provider', 8), { organization_id: 7 })).toBe(false);
    expect(mayWorkAlert(actor('provider', null), { organization_id: 7 })).toBe(false);
  });

  it('limits lists to the provider’s organization, none for an unattached provider, all for admins', () => {
    expect(alertListScope(actor('admin', 3))).toBeNull();
    expect(alertListScope(actor('provider', 3))).toBe(3);
    expect(alertListScope(actor('provider', null))).toBe(-1);
  });

  it('lets a patient’s providers set thresholds, and only admins edit organization defaults', () => {
    expect(maySetPatientThresholds(actor('provider', 4), { organization_id: 4 })).toBe(true);
    expect(maySetPatientThresholds(actor('provider', 5), { organization_id: 4 })).toBe(false);
    expect(mayReadAlertSettings(actor('provider', 4), 4)).toBe(true);
    expect(mayReadAlertSettings(actor('provider', 5), 4)).toBe(false);
    expect(mayEditAlertSettings(actor('provider', 4))).toBe(false);
    expect(mayEditAlertSettings(actor('admin', null))).toBe(true);
  });

  it('sends a live event to streams of its organization and to admins’ streams only', () => {
    expect(streamHearsAlert(null, { organization_id: 3 })).toBe(true);
    expect(streamHearsAlert(3, { organization_id: 3 })).toBe(true);
    expect(streamHearsAlert(4, { organization_id: 3 })).toBe(false);
    expect(streamHearsAlert(-1, { organization_id: 3 })).toBe(false);
  });
});
