import type { UserScope } from '../scope.ts';

export const userKeys = {
  all: (scope: UserScope) => [...scope, 'admin-users'] as const,
};
