import type {
  ManualVitalBody,
  Vital,
  Device,
  Note,
  NoteInput,
  NotePage,
  Organization,
  PatientDetail,
  PatientInput,
  PatientListItem,
  Provider,
  TrackingSession,
  TrackingSessionInput,
  TrackingSessionPage,
  VitalPage,
  VitalSeries,
} from '@rpm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost, apiPut } from '../../lib/api-client.ts';

/** Query keys of this feature, so that saves invalidate exactly what they change. */
export const patientKeys = {
  all: ['patients'] as const,
  detail: (id: number) => ['patients', id] as const,
  vitals: (id: number, limit: number, offset: number) => ['patients', id, 'vitals', limit, offset] as const,
  series: (id: number) => ['patients', id, 'vitals-series'] as const,
  notes: (id: number, limit: number, offset: number) => ['patients', id, 'notes', limit, offset] as const,
  sessions: (id: number, limit: number, offset: number) => ['patients', id, 'sessions', limit, offset] as const,
};

/**
 * The lists owned by other features may answer a bare array or an object holding it
 * (`{ organizations: [...] }`); both are accepted.
 */
export function unwrapList<T>(data: unknown, key: string): T[] {
  if (Array.isArray(data)) return data as T[];
  if (data && typeof data === 'object') {
    const inner = (data as Record<string, unknown>)[key] ?? (data as Record<string, unknown>).items;
    if (Array.isArray(inner)) return inner as T[];
  }
  return [];
}

export const usePatients = () =>
  useQuery({ queryKey: patientKeys.all, queryFn: () => apiGet<PatientListItem[]>('/api/patients') });

export const usePatient = (id: number, enabled = true) =>
  useQuery({
    queryKey: patientKeys.detail(id),
    queryFn: () => apiGet<PatientDetail>(`/api/patients/${id}`),
    enabled,
  });

export const useOrganizations = () =>
  useQuery({
    queryKey: ['organizations'],
    queryFn: async () => unwrapList<Organization>(await apiGet<unknown>('/api/organizations'), 'organizations'),
  });

export const useProviders = (organizationId: number | null) =>
  useQuery({
    queryKey: ['organizations', organizationId, 'providers'],
    queryFn: async () =>
      unwrapList<Provider>(await apiGet<unknown>(`/api/organizations/${organizationId}/providers`), 'providers'),
    enabled: organizationId !== null,
  });

export const useDevices = (enabled: boolean) =>
  useQuery({
    queryKey: ['devices'],
    queryFn: async () => unwrapList<Device>(await apiGet<unknown>('/api/devices'), 'devices'),
    enabled,
  });

export const useVitals = (id: number, limit: number, offset: number) =>
  useQuery({
    queryKey: patientKeys.vitals(id, limit, offset),
    queryFn: () => apiGet<VitalPage>(`/api/patients/${id}/vitals?limit=${limit}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });

export const useVitalSeries = (id: number) =>
  useQuery({
    queryKey: patientKeys.series(id),
    queryFn: () => apiGet<VitalSeries>(`/api/patients/${id}/vitals/series?days=90`),
  });

export const useNotes = (id: number, limit: number, offset: number) =>
  useQuery({
    queryKey: patientKeys.notes(id, limit, offset),
    queryFn: () => apiGet<NotePage>(`/api/patients/${id}/notes?limit=${limit}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });

export const useTrackingSessions = (id: number, limit: number, offset: number) =>
  useQuery({
    queryKey: patientKeys.sessions(id, limit, offset),
    queryFn: () => apiGet<TrackingSessionPage>(`/api/patients/${id}/sessions?limit=${limit}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });

export function useSavePatient(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PatientInput) =>
      id === null ? apiPost<PatientDetail>('/api/patients', body) : apiPut<PatientDetail>(`/api/patients/${id}`, body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(patientKeys.detail(saved.id), saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: patientKeys.all, exact: true }),
        queryClient.invalidateQueries({ queryKey: ['devices'] }),
      ]);
    },
  });
}

export function useAddNote(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NoteInput) => apiPost<Note>(`/api/patients/${id}/notes`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['patients', id, 'notes'] }),
  });
}

export function useAddTracking(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TrackingSessionInput) => apiPost<TrackingSession>(`/api/patients/${id}/sessions`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['patients', id, 'sessions'] }),
  });
}

/** A reading typed in by staff; the table and chart of that patient refresh. */
export function useAddReading(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ManualVitalBody) => apiPost<Vital>(`/api/patients/${id}/vitals`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['patients', id] }),
  });
}
