import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DbSampleResponse, DbSchemaResponse, DbTableParam, DbTablesResponse } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { describeTable, listTables, sampleTable } from './db-inspector.service.ts';

/** The database inspector: admin-only, read-only, allow-listed tables and columns. */
export const dbInspectorRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  const admin = { access: 'admin' as const };

  app.get(
    '/api/db/tables',
    { config: admin, schema: { tags: ['db'], response: { 200: DbTablesResponse } } },
    async (request) => ({ tables: await listTables(db, signedInContextOf(request)) }),
  );

  app.get(
    '/api/db/schema/:table',
    { config: admin, schema: { tags: ['db'], params: DbTableParam, response: { 200: DbSchemaResponse } } },
    async (request) => describeTable(db, signedInContextOf(request), request.params.table),
  );

  app.get(
    '/api/db/sample/:table',
    { config: admin, schema: { tags: ['db'], params: DbTableParam, response: { 200: DbSampleResponse } } },
    async (request) => sampleTable(db, signedInContextOf(request), request.params.table),
  );
};
