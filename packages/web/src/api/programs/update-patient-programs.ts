import { PatientPrograms, type PatientProgramsInput } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { programKeys } from './keys.ts';

export const updatePatientProgramsCall = defineCall(
  'PUT',
  '/api/patients/:id/programs',
  import.meta.env.DEV && PatientPrograms,
);

export const updatePatientPrograms = (id: number, body: PatientProgramsInput) =>
  callApi(updatePatientProgramsCall, { params: { id }, body });

/** PUT the patient's programs; the answer replaces the cached ones (the panels reorder). */
export function useUpdatePatientPrograms(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: PatientProgramsInput) => updatePatientPrograms(id, body),
    onSuccess: (programs) => queryClient.setQueryData(programKeys.patient(scope, id), programs),
  });
}
