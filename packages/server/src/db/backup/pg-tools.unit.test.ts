import { describe, expect, it } from 'vitest';
import { findPgTool, libpqEnv } from './pg-tools.ts';

describe('PostgreSQL client programs for a backup', () => {
  it('refuses a pg_dump older than the server, naming what to install', async () => {
    await expect(findPgTool('pg_dump', 99)).rejects.toThrow(
      /pg_dump must be of PostgreSQL 99 or newer.*postgresql-client-99.*PG_BIN_DIR/,
    );
  });

  it('hands the connection over in libpq variables, the password never on a command line', () => {
    const env = libpqEnv('postgres://owner:s%40cret@db.internal:6543/rpm?sslmode=require');
    expect(env).toMatchObject({
      PGHOST: 'db.internal',
      PGPORT: '6543',
      PGUSER: 'owner',
      PGPASSWORD: 's@cret',
      PGDATABASE: 'rpm',
      PGSSLMODE: 'require',
    });
  });
});
