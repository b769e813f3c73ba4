import { AttachUnmatchedResult, unmatchedAttachPath, type AttachUnmatchedBody } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';

export const attachUnmatchedReadingsCall = defineCall(
  'POST',
  unmatchedAttachPath,
  import.meta.env.DEV && AttachUnmatchedResult,
);

export const attachUnmatchedReadings = (body: AttachUnmatchedBody) => callApi(attachUnmatchedReadingsCall, { body });

/** Admins only; the attached readings leave the unmatched list. */
export function useAttachUnmatchedReadings() {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: attachUnmatchedReadings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...scope, 'unmatched-readings'] }),
  });
}
