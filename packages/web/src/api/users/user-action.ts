import { AdminUserResponse, type AdminUsersResponse } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { userKeys } from './keys.ts';

/** The path segment of each action under /api/admin/users/{id}/. */
export type UserAction = 'resend-invite' | 'enable' | 'disable' | 'reset-mfa';

export const userActionCall = defineCall(
  'POST',
  '/api/admin/users/:id/:action',
  import.meta.env.DEV && AdminUserResponse,
);

export const runUserAction = (id: number, action: UserAction) => callApi(userActionCall, { params: { id, action } });

/** One action on one user; on success the row is replaced in the cached list (spec section 4). */
export function useUserAction() {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: UserAction }) => runUserAction(id, action),
    onSuccess: ({ user }) => {
      queryClient.setQueryData<AdminUsersResponse>(userKeys.all(scope), (old) =>
        old ? { users: old.users.map((u) => (u.id === user.id ? user : u)) } : old,
      );
    },
  });
}
