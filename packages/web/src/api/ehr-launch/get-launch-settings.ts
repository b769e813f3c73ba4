import { EhrLaunchSettings } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { ehrLaunchKeys } from './keys.ts';

export const getLaunchSettingsCall = defineCall('GET', '/api/organizations/:id/ehr-launch', import.meta.env.DEV && EhrLaunchSettings);

export const getLaunchSettings = (id: number) => callApi(getLaunchSettingsCall, { params: { id } });

export const useLaunchSettings = (id: number | null) =>
  useQuery({
    queryKey: ehrLaunchKeys.settings(useUserScope(), id ?? 0),
    queryFn: () => getLaunchSettings(id!),
    enabled: id !== null,
  });
