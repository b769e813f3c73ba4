import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { mayInspectDatabase } from './db-inspector.ts';

describe('database inspector policy', () => {
  it('let admins only inspect the database', () => {
    expect(mayInspectDatabase(actor('admin'))).toBe(true);
    expect(mayInspectDatabase(actor('provider'))).toBe(false);
    expect(mayInspectDatabase(actor('provider', null))).toBe(false);
  });
});
