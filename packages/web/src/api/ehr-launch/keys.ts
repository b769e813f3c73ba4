import type { UserScope } from '../scope.ts';

export const ehrLaunchKeys = {
  settings: (scope: UserScope, organizationId: number) => [...scope, 'organizations', organizationId, 'ehr-launch'] as const,
};
