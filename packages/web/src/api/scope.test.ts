import { describe, expect, it } from 'vitest';
import { createQueryClient, startCacheFor } from '../lib/auth/query-cache.ts';
import { deviceKeys } from './devices/keys.ts';
import { patientKeys } from './patients/keys.ts';
import { userScope } from './scope.ts';

describe('query keys', () => {
  it('start with the user the cache belongs to, and a new user starts an empty cache', () => {
    const client = createQueryClient();
    expect(deviceKeys.all(userScope(client))).toEqual(['user', null, 'devices']);

    startCacheFor(client, 7);
    const scope = userScope(client);
    expect(patientKeys.detail(scope, 4)).toEqual(['user', 7, 'patients', 4]);
    client.setQueryData(patientKeys.detail(scope, 4), { id: 4 });

    startCacheFor(client, 8);
    expect(userScope(client)).toEqual(['user', 8]);
    expect(client.getQueryData(patientKeys.detail(scope, 4))).toBeUndefined();
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });

  it('of a patient hold its vitals, notes and tracking entries, so that one invalidation reaches them all', () => {
    const scope = ['user', 7] as const;
    const detail = patientKeys.detail(scope, 4);
    for (const key of [
      patientKeys.vitals(scope, 4, 10, 0),
      patientKeys.series(scope, 4),
      patientKeys.notesPage(scope, 4, 10, 0),
      patientKeys.trackingPage(scope, 4, 10, 0),
    ]) {
      expect(key.slice(0, detail.length)).toEqual(detail);
    }
  });
});
