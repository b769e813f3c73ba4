import { NotePage } from '@rpm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope, type UserScope } from '../scope.ts';

export const getNotesCall = defineCall('GET', '/api/patients/:id/notes', import.meta.env.DEV && NotePage);

export const getNotes = (id: number, limit: number, offset: number) =>
  callApi(getNotesCall, { params: { id }, query: { limit, offset } });

export const notesQuery = (scope: UserScope, id: number, limit: number, offset: number) =>
  queryOptions({
    queryKey: patientKeys.notesPage(scope, id, limit, offset),
    queryFn: () => getNotes(id, limit, offset),
  });

export const useNotes = (id: number, limit: number, offset: number) =>
  useQuery({ ...notesQuery(useUserScope(), id, limit, offset), placeholderData: keepPreviousData });
