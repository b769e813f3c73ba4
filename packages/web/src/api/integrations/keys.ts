import type { UserScope } from '../scope.ts';

export const integrationKeys = {
  all: (scope: UserScope) => [...scope, 'integrations'] as const,
};
