import type { UserScope } from '../scope.ts';

export const smartClientKeys = {
  all: (scope: UserScope) => [...scope, 'smart-clients'] as const,
};
