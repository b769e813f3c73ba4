import { Outreach, type OutreachInput } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope } from '../scope.ts';

export const recordOutreachCall = defineCall('POST', '/api/patients/:id/outreach', import.meta.env.DEV && Outreach);

export const recordOutreach = (id: number, body: OutreachInput) =>
  callApi(recordOutreachCall, { params: { id }, body });

/** The patient's outreach list loads again; so does the billing worklist, which shows the last one. */
export function useRecordOutreach(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: OutreachInput) => recordOutreach(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.outreach(scope, id) }),
  });
}
