import {
  CreateUserResponse,
  REGISTRATION_ATTEMPTS,
  REGISTRATION_RETRY_DELAY_MS,
  type CreateUserBody,
} from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { userKeys } from './keys.ts';

export const registerUserCall = defineCall('POST', '/api/admin/users', import.meta.env.DEV && CreateUserResponse);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spec section 8: a failed registration is tried once more after 0.5 s before it is reported. */
export async function registerUser(body: CreateUserBody): Promise<CreateUserResponse> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= REGISTRATION_ATTEMPTS; attempt++) {
    try {
      return await callApi(registerUserCall, { body });
    } catch (err) {
      lastError = err;
      if (attempt < REGISTRATION_ATTEMPTS) await wait(REGISTRATION_RETRY_DELAY_MS);
    }
  }
  throw lastError;
}

export function useRegisterUser() {
  const queryClient = useQueryClient();
  const scope = useUserScope();
  return useMutation({
    mutationFn: registerUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all(scope) }),
  });
}
