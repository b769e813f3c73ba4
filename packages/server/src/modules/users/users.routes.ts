import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** users: routes not built yet. */
export const usersRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
