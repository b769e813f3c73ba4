import type {
  ManualVitalBody,
  Vital,
  Device,
  Note,
  NoteInput,
  NotePage,
  Organization,
  PatientDetail,
  PatientList,
  PatientListQuery,
  PatientUpdate,
  Provider,
  TrackingSession,
  TrackingSessionInput,
  TrackingSessionPage,
  VitalPage,
  VitalSeries,
} from '@rpm/contracts';
import { NOTES_PAGE_SIZE, VITALS_PAGE_SIZE } from '@rpm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
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

/** The query string of GET /api/patients, without empty parameters. */
export function patientListSearch(query: PatientListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

/** One server page of the patient list; the previous page stays shown while the next loads. */
export const usePatients = (query: PatientListQuery) =>
  useQuery({
    queryKey: [...patientKeys.all, 'list', query] as const,
    queryFn: () => apiGet<PatientList>(`/api/patients?${patientListSearch(query)}`),
    placeholderData: keepPreviousData,
  });

const patientQuery = (id: number) => ({
  queryKey: patientKeys.detail(id),
  queryFn: () => apiGet<PatientDetail>(`/api/patients/${id}`),
});
const vitalsQuery = (id: number, limit: number, offset: number) => ({
  queryKey: patientKeys.vitals(id, limit, offset),
  queryFn: () => apiGet<VitalPage>(`/api/patients/${id}/vitals?limit=${limit}&offset=${offset}`),
});
const notesQuery = (id: number, limit: number, offset: number) => ({
  queryKey: patientKeys.notes(id, limit, offset),
  queryFn: () => apiGet<NotePage>(`/api/patients/${id}/notes?limit=${limit}&offset=${offset}`),
});
/** The tracking table opens on 10 rows. */
export const TRACKING_PAGE_SIZE = 10;
const trackingQuery = (id: number, limit: number, offset: number) => ({
  queryKey: patientKeys.sessions(id, limit, offset),
  queryFn: () => apiGet<TrackingSessionPage>(`/api/patients/${id}/sessions?limit=${limit}&offset=${offset}`),
});

/**
 * Starts every request the patient page makes when it opens, so that a reload of the page does not
 * wait for its code to arrive before asking for its data.
 */
export function prefetchPatientPage(client: QueryClient, id: number): void {
  if (!Number.isSafeInteger(id) || id < 1) return;
  void client.prefetchQuery(patientQuery(id));
  void client.prefetchQuery(vitalsQuery(id, VITALS_PAGE_SIZE, 0));
  void client.prefetchQuery(notesQuery(id, NOTES_PAGE_SIZE, 0));
  void client.prefetchQuery(trackingQuery(id, TRACKING_PAGE_SIZE, 0));
}

export const usePatient = (id: number, enabled = true) => useQuery({ ...patientQuery(id), enabled });

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
  useQuery({ ...vitalsQuery(id, limit, offset), placeholderData: keepPreviousData });

export const useVitalSeries = (id: number) =>
  useQuery({
    queryKey: patientKeys.series(id),
    queryFn: () => apiGet<VitalSeries>(`/api/patients/${id}/vitals/series?days=90`),
  });

export const useNotes = (id: number, limit: number, offset: number) =>
  useQuery({ ...notesQuery(id, limit, offset), placeholderData: keepPreviousData });

export const useTrackingSessions = (id: number, limit: number, offset: number) =>
  useQuery({ ...trackingQuery(id, limit, offset), placeholderData: keepPreviousData });

export function useSavePatient(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PatientUpdate) =>
      id === null ? apiPost<PatientDetail>('/api/patients', body) : apiPut<PatientDetail>(`/api/patients/${id}`, body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(patientKeys.detail(saved.id), saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [...patientKeys.all, 'list'] }),
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
