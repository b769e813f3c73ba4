import { EhrLaunchSettings, type UpdateEhrLaunchSettingsBody } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { ehrLaunchKeys } from './keys.ts';

export const updateLaunchSettingsCall = defineCall('PUT', '/api/organizations/:id/ehr-launch', import.meta.env.DEV && EhrLaunchSettings);

export const updateLaunchSettings = (id: number, body: UpdateEhrLaunchSettingsBody) =>
  callApi(updateLaunchSettingsCall, { params: { id }, body });

/** PUT /api/organizations/{id}/ehr-launch; the answer replaces the cached settings. */
export function useUpdateLaunchSettings(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: UpdateEhrLaunchSettingsBody) => updateLaunchSettings(id, body),
    onSuccess: (settings) => queryClient.setQueryData(ehrLaunchKeys.settings(scope, id), settings),
  });
}
