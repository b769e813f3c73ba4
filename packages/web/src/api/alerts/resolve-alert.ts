import { Alert, type ResolveAlertBody } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

export const resolveAlertCall = defineCall('POST', '/api/alerts/:id/resolve', import.meta.env.DEV && Alert);

export const resolveAlert = ({ id, body }: { id: number; body: ResolveAlertBody }) =>
  callApi(resolveAlertCall, { params: { id }, body });

/** Resolving adds a note (and maybe a tracking entry) to the patient: their page refreshes too. */
export function useResolveAlert() {
  const client = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: resolveAlert,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: alertKeys.all(scope) });
      await client.invalidateQueries({ queryKey: patientKeys.all(scope) });
    },
  });
}
