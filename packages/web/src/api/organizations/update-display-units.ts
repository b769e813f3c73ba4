import { OrganizationDisplayUnits } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { displayUnitsKey } from './get-display-units.ts';

export const updateDisplayUnitsCall = defineCall(
  'PUT',
  '/api/organizations/:id/display-units',
  import.meta.env.DEV && OrganizationDisplayUnits,
);

export const updateDisplayUnits = (id: number, body: OrganizationDisplayUnits) =>
  callApi(updateDisplayUnitsCall, { params: { id }, body });

/** PUT an organization's display units (admins); the answer replaces the cached ones. */
export function useUpdateDisplayUnits(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: OrganizationDisplayUnits) => updateDisplayUnits(id, body),
    onSuccess: (units) => queryClient.setQueryData(displayUnitsKey(scope, id), units),
  });
}
