import { BillingReopening, type BillingReopenBody } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { billingKeys } from './get-billing-report.ts';

export const reopenBillingMonthCall = defineCall(
  'POST',
  '/api/billing/:month/reopen',
  import.meta.env.DEV && BillingReopening,
);

export const reopenBillingMonth = (month: string, body: BillingReopenBody) =>
  callApi(reopenBillingMonthCall, { params: { month }, body });

/** Admins only, until the claims are sent; the reason is kept with the reopening. */
export function useReopenBillingMonth() {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: ({ month, body }: { month: string; body: BillingReopenBody }) => reopenBillingMonth(month, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all(scope) }),
  });
}
