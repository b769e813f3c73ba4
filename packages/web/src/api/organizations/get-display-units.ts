import { OrganizationDisplayUnits } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';
import { organizationKeys } from './keys.ts';

export const getDisplayUnitsCall = defineCall(
  'GET',
  '/api/organizations/:id/display-units',
  import.meta.env.DEV && OrganizationDisplayUnits,
);

export const getDisplayUnits = (id: number) => callApi(getDisplayUnitsCall, { params: { id } });

export const displayUnitsKey = (scope: UserScope, id: number) =>
  [...organizationKeys.all(scope), id, 'display-units'] as const;

/** The units an organization shows each kind in (a kind not named: its first unit choice). */
export const useDisplayUnits = (id: number | null) =>
  useQuery({
    queryKey: displayUnitsKey(useUserScope(), id ?? 0),
    queryFn: () => getDisplayUnits(id ?? 0),
    enabled: id !== null,
    staleTime: 5 * 60_000,
  });
