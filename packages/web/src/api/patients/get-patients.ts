import { PatientList, type PatientListQuery } from '@rpm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';
import { patientKeys } from './keys.ts';

export const getPatientsCall = defineCall('GET', '/api/patients', import.meta.env.DEV && PatientList);

export const getPatients = (query: PatientListQuery) => callApi(getPatientsCall, { query });

/** One server page of the patient list; the previous page stays shown while the next loads. */
export const patientsQuery = (scope: UserScope, query: PatientListQuery) =>
  queryOptions({
    queryKey: patientKeys.list(scope, query),
    queryFn: () => getPatients(query),
    placeholderData: keepPreviousData,
  });

export const usePatients = (query: PatientListQuery) => useQuery(patientsQuery(useUserScope(), query));
