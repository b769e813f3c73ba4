import { BillingClosing } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { billingKeys } from './get-billing-report.ts';

export const closeBillingMonthCall = defineCall('POST', '/api/billing/:month/close', import.meta.env.DEV && BillingClosing);

export const closeBillingMonth = (month: string) => callApi(closeBillingMonthCall, { params: { month } });

/** Admins only; the report of every organization shows the month closed afterwards. */
export function useCloseBillingMonth() {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: closeBillingMonth,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all(scope) }),
  });
}
