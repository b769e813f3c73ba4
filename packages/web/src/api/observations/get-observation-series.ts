import { MAX_PAGE_LIMIT } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useUserScope } from '../scope.ts';
import { getObservations } from './get-observations.ts';
import { observationKeys } from './keys.ts';

const SERIES_DAYS = 90;

/**
 * A kind's readings of the last 90 days for its chart (as the vitals chart), oldest first: the
 * newest pages of the observations list, up to a bound so that a chatty device cannot make the
 * chart ask for pages without end.
 */
export async function getObservationSeries(id: number, kind: string, now = Date.now()) {
  const from = new Date(now - SERIES_DAYS * 24 * 3600 * 1000).toISOString();
  const items = [];
  for (let offset = 0, page = 0; page < 10; page++, offset += MAX_PAGE_LIMIT) {
    const answer = await getObservations(id, { kind, from, limit: MAX_PAGE_LIMIT, offset });
    items.push(...answer.items);
    if (answer.items.length < MAX_PAGE_LIMIT || items.length >= answer.total) break;
  }
  return items.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export const useObservationSeries = (id: number, kind: string) =>
  useQuery({ queryKey: observationKeys.series(useUserScope(), id, kind), queryFn: () => getObservationSeries(id, kind) });
