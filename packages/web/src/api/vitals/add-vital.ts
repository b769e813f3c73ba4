import { Vital, type ManualVitalBody } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope } from '../scope.ts';

export const addVitalCall = defineCall('POST', '/api/patients/:id/vitals', import.meta.env.DEV && Vital);

export const addVital = (id: number, body: ManualVitalBody) => callApi(addVitalCall, { params: { id }, body });

/** A reading typed in by staff; the table and chart of that patient refresh. */
export function useAddReading(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: ManualVitalBody) => addVital(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.detail(scope, id) }),
  });
}
