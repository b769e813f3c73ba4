import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** db-inspector: routes not built yet. */
export const dbInspectorRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
