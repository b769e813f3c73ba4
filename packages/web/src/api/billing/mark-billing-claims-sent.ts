import { BillingClaimsSent } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { billingKeys } from './get-billing-report.ts';

export const markBillingClaimsSentCall = defineCall(
  'POST',
  '/api/billing/:month/claims-sent',
  import.meta.env.DEV && BillingClaimsSent,
);

export const markBillingClaimsSent = (month: string) => callApi(markBillingClaimsSentCall, { params: { month } });

/** Admins only, for a closed month: afterwards it can no longer be reopened. */
export function useMarkBillingClaimsSent() {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: markBillingClaimsSent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all(scope) }),
  });
}
