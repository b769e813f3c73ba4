import { PatientThresholds, type PatientThresholdsBody, type PatientThresholds as Thresholds } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

export const savePatientThresholdsCall = defineCall(
  'PUT',
  '/api/patients/:id/thresholds',
  import.meta.env.DEV && PatientThresholds,
);

export const savePatientThresholds = (patientId: number, body: PatientThresholdsBody) =>
  callApi(savePatientThresholdsCall, { params: { id: patientId }, body }) as Promise<Thresholds>;

export function useSavePatientThresholds(patientId: number) {
  const client = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: PatientThresholdsBody) => savePatientThresholds(patientId, body),
    onSuccess: (saved) => client.setQueryData(alertKeys.thresholds(scope, patientId), saved),
  });
}
