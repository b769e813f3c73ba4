import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** roles: routes not built yet. */
export const rolesRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
