import type { Queryable } from '../../db/pool.ts';
import { pingDatabase } from './health.repository.ts';

/** Whether the database answers at all: throws when it does not (start-up waits for it). */
export const checkDatabase = (db: Queryable): Promise<void> => pingDatabase(db);
