import { describe, expect, it } from 'vitest';
import { mayOpenSession } from './sessions.ts';

describe('sessions policy', () => {
  it('opens sessions for active users only', () => {
    expect(mayOpenSession({ status: 'active' })).toBe(true);
    expect(mayOpenSession({ status: 'disabled' })).toBe(false);
  });
});
