import { Alert, type AcknowledgeAlertBody } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

export const acknowledgeAlertCall = defineCall('POST', '/api/alerts/:id/acknowledge', import.meta.env.DEV && Alert);

export const acknowledgeAlert = ({ id, body }: { id: number; body: AcknowledgeAlertBody }) =>
  callApi(acknowledgeAlertCall, { params: { id }, body });

export function useAcknowledgeAlert() {
  const client = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: acknowledgeAlert,
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.all(scope) }),
  });
}
