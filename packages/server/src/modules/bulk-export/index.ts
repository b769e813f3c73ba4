import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** FHIR Bulk Data export, registered under the FHIR server's prefix (issue 27). */
export const bulkExportRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
