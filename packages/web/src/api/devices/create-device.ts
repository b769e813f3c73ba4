import { Device, type CreateDeviceBody } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { deviceKeys } from './keys.ts';

export const createDeviceCall = defineCall('POST', '/api/devices', import.meta.env.DEV && Device);

export const createDevice = (body: CreateDeviceBody) => callApi(createDeviceCall, { body });

export function useAddDevice() {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: createDevice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all(scope) }),
  });
}
