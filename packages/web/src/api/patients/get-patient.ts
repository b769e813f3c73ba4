import { PatientDetail } from '@rpm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';
import { patientKeys } from './keys.ts';

export const getPatientCall = defineCall('GET', '/api/patients/:id', import.meta.env.DEV && PatientDetail);

export const getPatient = (id: number) => callApi(getPatientCall, { params: { id } });

export const patientQuery = (scope: UserScope, id: number) =>
  queryOptions({ queryKey: patientKeys.detail(scope, id), queryFn: () => getPatient(id) });

export const usePatient = (id: number, enabled = true) => useQuery({ ...patientQuery(useUserScope(), id), enabled });
