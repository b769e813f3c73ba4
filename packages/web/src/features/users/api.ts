import {
  REGISTRATION_ATTEMPTS,
  REGISTRATION_RETRY_DELAY_MS,
  type AdminUser,
  type AdminUserResponse,
  type AdminUsersResponse,
  type CreateUserBody,
  type CreateUserResponse,
  type Organization,
  type RolesResponse,
} from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api-client.ts';

export const userKeys = {
  all: ['admin-users'] as const,
  roles: ['roles'] as const,
  organizations: ['organizations'] as const,
};

export const useRoles = () =>
  useQuery({ queryKey: userKeys.roles, queryFn: () => apiGet<RolesResponse>('/api/roles'), select: (d) => d.roles });

export const useOrganizations = () =>
  useQuery({ queryKey: userKeys.organizations, queryFn: () => apiGet<Organization[]>('/api/organizations') });

export const useUsers = () =>
  useQuery({ queryKey: userKeys.all, queryFn: () => apiGet<AdminUsersResponse>('/api/admin/users'), select: (d) => d.users });

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spec section 8: a failed registration is tried once more after 0.5 s before it is reported. */
export async function registerUser(body: CreateUserBody): Promise<CreateUserResponse> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= REGISTRATION_ATTEMPTS; attempt++) {
    try {
      return await apiPost<CreateUserResponse>('/api/admin/users', body);
    } catch (err) {
      lastError = err;
      if (attempt < REGISTRATION_ATTEMPTS) await wait(REGISTRATION_RETRY_DELAY_MS);
    }
  }
  throw lastError;
}

export function useRegisterUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** The path segment of each action under /api/admin/users/{id}/. */
export type UserAction = 'resend-invite' | 'enable' | 'disable' | 'reset-mfa';

/** One action on one user; on success the row is replaced in the cached list (spec section 4). */
export function useUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: UserAction }) =>
      apiPost<AdminUserResponse>(`/api/admin/users/${id}/${action}`),
    onSuccess: ({ user }) => {
      queryClient.setQueryData<AdminUsersResponse>(userKeys.all, (old) =>
        old ? { users: old.users.map((u: AdminUser) => (u.id === user.id ? user : u)) } : old,
      );
    },
  });
}
