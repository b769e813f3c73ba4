import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** audit: routes not built yet. */
export const auditRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
