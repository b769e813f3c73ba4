import { MonthlySummary } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope } from '../scope.ts';

export const getMonthlySummaryCall = defineCall('GET', '/api/patients/:id/summary', import.meta.env.DEV && MonthlySummary);

export const getMonthlySummary = (patientId: number, month: string) =>
  callApi(getMonthlySummaryCall, { params: { id: patientId }, query: { month } });

/** Kept under the patient's key: a change to the patient refreshes the summary too. */
export const useMonthlySummary = (patientId: number, month: string, enabled = true) =>
  useQuery({
    queryKey: [...patientKeys.detail(useUserScope(), patientId), 'summary', month] as const,
    queryFn: () => getMonthlySummary(patientId, month),
    enabled,
  });
