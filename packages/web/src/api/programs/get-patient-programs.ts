import { PatientPrograms } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { programKeys } from './keys.ts';

export const getPatientProgramsCall = defineCall(
  'GET',
  '/api/patients/:id/programs',
  import.meta.env.DEV && PatientPrograms,
);

export const getPatientPrograms = (id: number) => callApi(getPatientProgramsCall, { params: { id } });

export const usePatientPrograms = (id: number) =>
  useQuery({ queryKey: programKeys.patient(useUserScope(), id), queryFn: () => getPatientPrograms(id) });
