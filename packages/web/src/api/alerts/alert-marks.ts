import { AlertMarks } from '@rpm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

export const getAlertMarksCall = defineCall('GET', '/api/patients/:id/alert-marks', import.meta.env.DEV && AlertMarks);

export const getAlertMarks = (patientId: number, days: number) =>
  callApi(getAlertMarksCall, { params: { id: patientId }, query: { days } });

export const alertMarksQuery = (scope: UserScope, patientId: number, days: number) =>
  queryOptions({ queryKey: alertKeys.marks(scope, patientId, days), queryFn: () => getAlertMarks(patientId, days) });

/** Measurement times of the readings that raised an alert (vitals Figure marks). */
export const useAlertMarks = (patientId: number, days: number) => useQuery(alertMarksQuery(useUserScope(), patientId, days));
