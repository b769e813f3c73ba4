import { DevicesResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { deviceKeys } from './keys.ts';

export const getDevicesCall = defineCall('GET', '/api/devices', import.meta.env.DEV && DevicesResponse);

export const getDevices = () => callApi(getDevicesCall);

export const useDevices = ({ enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ queryKey: deviceKeys.all(useUserScope()), queryFn: getDevices, enabled });
