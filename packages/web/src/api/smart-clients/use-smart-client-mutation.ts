import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useUserScope } from '../scope.ts';
import { smartClientKeys } from './keys.ts';

/** Every change to a client reloads the list of clients. */
export function useSmartClientMutation<Arg, Answer>(fn: (arg: Arg) => Promise<Answer>) {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: smartClientKeys.all(scope) }),
  });
}
