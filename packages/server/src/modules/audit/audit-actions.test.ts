import { AuditActions } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../kernel/audit-writer.ts';

describe('audit actions', () => {
  it('are listed once each, as <resource>.<verb>', () => {
    expect(new Set(AuditActions).size).toBe(AuditActions.length);
    for (const action of AuditActions) expect(action).toMatch(/^[a-z]+(\.[a-z_]+)+$/);
  });

  it('refuse a misspelt action at compile time (the type check runs over the tests too)', () => {
    // @ts-expect-error: 'patient.raed' is not one of the AuditActions
    const misspelt: AuditEvent = { action: 'patient.raed', outcome: 'success' };
    const spelt: AuditEvent = { action: 'patient.read', outcome: 'success' };
    expect(AuditActions).not.toContain(misspelt.action);
    expect(AuditActions).toContain(spelt.action);
  });
});
