import type { UserScope } from '../scope.ts';

export const deviceKeys = {
  all: (scope: UserScope) => [...scope, 'devices'] as const,
};
