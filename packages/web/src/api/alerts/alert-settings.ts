import { AlertSettings, type AlertSettingsBody, type AlertSettings as Settings } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

export const getAlertSettingsCall = defineCall(
  'GET',
  '/api/organizations/:id/alert-settings',
  import.meta.env.DEV && AlertSettings,
);
export const saveAlertSettingsCall = defineCall(
  'PUT',
  '/api/organizations/:id/alert-settings',
  import.meta.env.DEV && AlertSettings,
);

// The schema is built from the threshold list, so its static type has no named keys; the interface does.
export const getAlertSettings = (id: number) => callApi(getAlertSettingsCall, { params: { id } }) as Promise<Settings>;
export const saveAlertSettings = (id: number, body: AlertSettingsBody) =>
  callApi(saveAlertSettingsCall, { params: { id }, body }) as Promise<Settings>;

/** An organization's thresholds, blood-pressure window, stale days and escalation. */
export const useAlertSettings = (id: number | null) =>
  useQuery({
    queryKey: alertKeys.settings(useUserScope(), id ?? 0),
    queryFn: () => getAlertSettings(id!),
    enabled: id !== null,
  });

/** Saving changes what every alert query answers (a patient's effective thresholds too): all refresh. */
export function useSaveAlertSettings(id: number) {
  const client = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: AlertSettingsBody) => saveAlertSettings(id, body),
    onSuccess: async (saved) => {
      client.setQueryData(alertKeys.settings(scope, id), saved);
      await client.invalidateQueries({ queryKey: alertKeys.all(scope) });
    },
  });
}
