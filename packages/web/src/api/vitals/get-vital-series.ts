import { VitalSeries } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope } from '../scope.ts';

export const getVitalSeriesCall = defineCall(
  'GET',
  '/api/patients/:id/vitals/series',
  import.meta.env.DEV && VitalSeries,
);

/** The chart shows the last 90 days. */
export const getVitalSeries = (id: number) => callApi(getVitalSeriesCall, { params: { id }, query: { days: 90 } });

export const useVitalSeries = (id: number) =>
  useQuery({ queryKey: patientKeys.series(useUserScope(), id), queryFn: () => getVitalSeries(id) });
