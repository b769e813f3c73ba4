import { TrackingSession, type TrackingSessionInput } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope } from '../scope.ts';

export const addTrackingEntryCall = defineCall(
  'POST',
  '/api/patients/:id/sessions',
  import.meta.env.DEV && TrackingSession,
);

export const addTrackingEntry = (id: number, body: TrackingSessionInput) =>
  callApi(addTrackingEntryCall, { params: { id }, body });

export function useAddTrackingEntry(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: TrackingSessionInput) => addTrackingEntry(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.tracking(scope, id) }),
  });
}
