import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { mayReadAuditLog } from './audit.ts';

describe('audit policy', () => {
  it('let admins only read the audit log', () => {
    expect(mayReadAuditLog(actor('admin'))).toBe(true);
    expect(mayReadAuditLog(actor('admin', null))).toBe(true);
    expect(mayReadAuditLog(actor('provider'))).toBe(false);
  });
});
