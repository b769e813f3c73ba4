import { Observation, type ObservationInput } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { observationKeys } from './keys.ts';

export const addObservationCall = defineCall(
  'POST',
  '/api/patients/:id/observations',
  import.meta.env.DEV && Observation,
);

export const addObservation = (id: number, body: ObservationInput) =>
  callApi(addObservationCall, { params: { id }, body });

/** A reading of any kind typed in by staff; the patient's panels refresh. */
export function useAddObservation(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: ObservationInput) => addObservation(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: observationKeys.all(scope, id) }),
  });
}
