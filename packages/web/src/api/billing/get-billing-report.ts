import { BILLING_PAGE_SIZE, BillingReport, billingPath, type BillingQuery, type BillingReportQuery } from '@rpm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';

export const billingKeys = {
  all: (scope: UserScope) => [...scope, 'billing'] as const,
  report: (scope: UserScope, query: BillingReportQuery) =>
    [...scope, 'billing', 'report', query.month, query.organization_id ?? null, query.limit ?? null, query.offset ?? 0] as const,
};

export const getBillingReportCall = defineCall('GET', billingPath, import.meta.env.DEV && BillingReport);

/** The query string of the billing report and its CSV export, without an empty organization. */
export const billingQueryParams = (query: BillingQuery) => ({ month: query.month, organization_id: query.organization_id });

/** The page of a paged billing call; the server's defaults (the first page of the usual size) are left out. */
export const billingPageParams = (query: { limit?: number; offset?: number }) => ({
  limit: query.limit === BILLING_PAGE_SIZE ? undefined : query.limit,
  offset: query.offset || undefined,
});

/** One page of the report (the totals are over every row). */
export const getBillingReport = (query: BillingReportQuery) =>
  callApi(getBillingReportCall, { query: { ...billingQueryParams(query), ...billingPageParams(query) } });

export const useBillingReport = (query: BillingReportQuery) =>
  useQuery({
    queryKey: billingKeys.report(useUserScope(), query),
    queryFn: () => getBillingReport(query),
    placeholderData: keepPreviousData,
  });
