import type pg from 'pg';
import type { Config } from '../config.ts';
import type { Identity } from './identity/index.ts';

/** What every domain's routes receive from app.ts. */
export interface ModuleDeps {
  db: pg.Pool;
  identity: Identity;
  config: Config;
}
