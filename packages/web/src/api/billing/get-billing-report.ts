import { BillingReport, billingPath, type BillingQuery } from '@rpm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';

export const billingKeys = {
  all: (scope: UserScope) => [...scope, 'billing'] as const,
  report: (scope: UserScope, query: BillingQuery) => [...scope, 'billing', 'report', query.month, query.organization_id ?? null] as const,
};

export const getBillingReportCall = defineCall('GET', billingPath, import.meta.env.DEV && BillingReport);

/** The query string of the billing report and its CSV export, without an empty organization. */
export const billingQueryParams = (query: BillingQuery) => ({ month: query.month, organization_id: query.organization_id });

export const getBillingReport = (query: BillingQuery) => callApi(getBillingReportCall, { query: billingQueryParams(query) });

export const useBillingReport = (query: BillingQuery) =>
  useQuery({
    queryKey: billingKeys.report(useUserScope(), query),
    queryFn: () => getBillingReport(query),
    placeholderData: keepPreviousData,
  });
