import type { Queryable } from '../../db/pool.ts';

/**
 * Placeholder: replaced by the engine's implementation (evaluates the patients' alerts again with
 * their current thresholds and programs). Here only so the job plumbing compiles.
 */
export async function reevaluatePatients(_db: Queryable, _patientIds: number[]): Promise<void> {}
