import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** organizations: routes not built yet. */
export const organizationsRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
