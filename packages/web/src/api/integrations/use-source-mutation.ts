import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useUserScope } from '../scope.ts';
import { integrationKeys } from './keys.ts';

/** Every change to a source reloads the list of sources. */
export function useSourceMutation<Arg, Answer>(fn: (arg: Arg) => Promise<Answer>) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.all(scope) }),
  });
}
