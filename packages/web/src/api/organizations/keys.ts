import type { UserScope } from '../scope.ts';

export const organizationKeys = {
  all: (scope: UserScope) => [...scope, 'organizations'] as const,
  providers: (scope: UserScope, id: number | null) => [...scope, 'organizations', id, 'providers'] as const,
  settings: (scope: UserScope, id: number) => [...scope, 'organizations', id, 'settings'] as const,
};
