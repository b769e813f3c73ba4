import { OutreachPage } from '@rpm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope, type UserScope } from '../scope.ts';

export const getOutreachCall = defineCall('GET', '/api/patients/:id/outreach', import.meta.env.DEV && OutreachPage);

export const getOutreach = (id: number, limit: number, offset: number) =>
  callApi(getOutreachCall, { params: { id }, query: { limit, offset } });

export const outreachQuery = (scope: UserScope, id: number, limit: number, offset: number) =>
  queryOptions({
    queryKey: patientKeys.outreachPage(scope, id, limit, offset),
    queryFn: () => getOutreach(id, limit, offset),
  });

export const useOutreach = (id: number, limit: number, offset: number) =>
  useQuery({ ...outreachQuery(useUserScope(), id, limit, offset), placeholderData: keepPreviousData });
