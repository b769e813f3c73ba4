import { TrackingEntry, type TrackingEntryInput } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope } from '../scope.ts';

export const addTrackingEntryCall = defineCall(
  'POST',
  '/api/patients/:id/sessions',
  import.meta.env.DEV && TrackingEntry,
);

export const addTrackingEntry = (id: number, body: TrackingEntryInput) =>
  callApi(addTrackingEntryCall, { params: { id }, body });

export function useAddTrackingEntry(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: TrackingEntryInput) => addTrackingEntry(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.tracking(scope, id) }),
  });
}
