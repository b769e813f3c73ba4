import type { PatientUpdate } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deviceKeys } from '../devices/keys.ts';
import { useUserScope } from '../scope.ts';
import { createPatient } from './create-patient.ts';
import { patientKeys } from './keys.ts';
import { updatePatient } from './update-patient.ts';

/**
 * The patient form's save: a new patient (id null) or an update. The answer replaces the cached
 * patient; the lists and the devices (whose assignment the save may change) load again.
 */
export function useSavePatient(id: number | null) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: PatientUpdate) => (id === null ? createPatient(body) : updatePatient(id, body)),
    onSuccess: async (saved) => {
      queryClient.setQueryData(patientKeys.detail(scope, saved.id), saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: patientKeys.lists(scope) }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.all(scope) }),
      ]);
    },
  });
}
