import { patientKeys } from '../patients/keys.ts';
import type { UserScope } from '../scope.ts';

export const programKeys = {
  all: (scope: UserScope) => [...scope, 'programs'] as const,
  patient: (scope: UserScope, id: number) => [...patientKeys.detail(scope, id), 'programs'] as const,
};
