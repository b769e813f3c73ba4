import type { CreateDeviceBody, Device, UnmatchedReadingsResponse } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api-client.ts';

export const deviceKeys = { all: ['devices'] as const };

export const useDevices = () => useQuery({ queryKey: deviceKeys.all, queryFn: () => apiGet<Device[]>('/api/devices') });

export function useAddDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDeviceBody) => apiPost<Device>('/api/devices', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}

export const useUnmatchedReadings = () =>
  useQuery({
    queryKey: ['unmatched-readings'],
    queryFn: () => apiGet<UnmatchedReadingsResponse>('/api/unmatched-readings?limit=100'),
  });
