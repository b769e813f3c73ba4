import { BillingWorklist, billingWorklistPath, type BillingWorklistQuery } from '@rpm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';
import { billingKeys, billingPageParams } from './get-billing-report.ts';

/** Under the billing key, so that closing or reopening a month refreshes the worklist too. */
export const billingWorklistKey = (scope: UserScope, query: BillingWorklistQuery) =>
  [
    ...billingKeys.all(scope),
    'worklist',
    query.month ?? 'current',
    query.organization_id ?? null,
    query.provider_id ?? null,
    query.program ?? null,
    query.sort ?? null,
    query.order ?? null,
    query.limit ?? null,
    query.offset ?? 0,
  ] as const;

export const getBillingWorklistCall = defineCall('GET', billingWorklistPath, import.meta.env.DEV && BillingWorklist);

/** One page of the worklist; `month` undefined: the organization's current month, as the server counts it. */
export const getBillingWorklist = (query: BillingWorklistQuery) =>
  callApi(getBillingWorklistCall, {
    query: {
      month: query.month,
      organization_id: query.organization_id,
      provider_id: query.provider_id,
      program: query.program,
      sort: query.sort,
      order: query.order,
      ...billingPageParams(query),
    },
  });

export const useBillingWorklist = (query: BillingWorklistQuery) =>
  useQuery({
    queryKey: billingWorklistKey(useUserScope(), query),
    queryFn: () => getBillingWorklist(query),
    placeholderData: keepPreviousData,
  });
