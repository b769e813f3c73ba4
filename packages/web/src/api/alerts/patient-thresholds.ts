import { PatientThresholds } from '@rpm/contracts';
import type { PatientThresholds as Thresholds } from '@rpm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

export const getPatientThresholdsCall = defineCall(
  'GET',
  '/api/patients/:id/thresholds',
  import.meta.env.DEV && PatientThresholds,
);

// The schema is built from the threshold list, so its static type has no named keys; the interface does.
export const getPatientThresholds = (patientId: number) =>
  callApi(getPatientThresholdsCall, { params: { id: patientId } }) as Promise<Thresholds>;

export const patientThresholdsQuery = (scope: UserScope, patientId: number) =>
  queryOptions({ queryKey: alertKeys.thresholds(scope, patientId), queryFn: () => getPatientThresholds(patientId) });

/** What the patient's readings are checked against: their own values, and what applies. */
export const usePatientThresholds = (patientId: number) => useQuery(patientThresholdsQuery(useUserScope(), patientId));
