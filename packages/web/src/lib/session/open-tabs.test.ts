import { describe, expect, it } from 'vitest';
import { TAB_STALE_MS, registerTab, unregisterTab } from './open-tabs.ts';

describe('open tab registry', () => {
  it('says the last tab is the last one, and not before', () => {
    registerTab('a', 1000);
    registerTab('b', 1000);
    expect(unregisterTab('a', 2000)).toEqual({ othersOpen: true });
    expect(unregisterTab('b', 2000)).toEqual({ othersOpen: false });
  });

  it('forgets a tab that stopped renewing its entry (crashed)', () => {
    registerTab('crashed', 0);
    registerTab('alive', TAB_STALE_MS - 1);
    expect(unregisterTab('alive', TAB_STALE_MS + 10)).toEqual({ othersOpen: false });
  });

  it('keeps a tab that renews its entry', () => {
    registerTab('a', 0);
    registerTab('b', 0);
    registerTab('b', TAB_STALE_MS);
    expect(unregisterTab('a', TAB_STALE_MS + 10)).toEqual({ othersOpen: true });
  });
});
