import { Note, type NoteInput } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope } from '../scope.ts';

export const addNoteCall = defineCall('POST', '/api/patients/:id/notes', import.meta.env.DEV && Note);

export const addNote = (id: number, body: NoteInput) => callApi(addNoteCall, { params: { id }, body });

export function useAddNote(id: number) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: (body: NoteInput) => addNote(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.notes(scope, id) }),
  });
}
