import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { mayCallRoute } from './routes.ts';

describe('routes policy', () => {
  it('opens public and machine routes to anyone', () => {
    for (const access of ['public', 'machine'] as const) {
      expect(mayCallRoute(null, access)).toBe(true);
      expect(mayCallRoute(actor('provider'), access)).toBe(true);
    }
  });

  it('opens signed-in routes to any staff member, admin routes to admins only', () => {
    expect(mayCallRoute(null, 'signed-in')).toBe(false);
    expect(mayCallRoute(actor('provider'), 'signed-in')).toBe(true);
    expect(mayCallRoute(null, 'admin')).toBe(false);
    expect(mayCallRoute(actor('provider'), 'admin')).toBe(false);
    expect(mayCallRoute(actor('admin'), 'admin')).toBe(true);
  });
});
