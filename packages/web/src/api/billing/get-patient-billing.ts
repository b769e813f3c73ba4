import { PatientBilling } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope, type UserScope } from '../scope.ts';

export const getPatientBillingCall = defineCall('GET', '/api/patients/:id/billing', import.meta.env.DEV && PatientBilling);

/**
 * Kept under the patient's tracking key, so that adding tracking time (which refreshes that key)
 * refreshes the month's progress as well. `month` undefined: the current month.
 */
export const patientBillingKey = (scope: UserScope, patientId: number, month: string | undefined) =>
  [...patientKeys.tracking(scope, patientId), 'billing', month ?? 'current'] as const;

export const getPatientBilling = (patientId: number, month: string | undefined) =>
  callApi(getPatientBillingCall, { params: { id: patientId }, query: { month } });

export const usePatientBilling = (patientId: number, month?: string) =>
  useQuery({ queryKey: patientBillingKey(useUserScope(), patientId, month), queryFn: () => getPatientBilling(patientId, month) });
