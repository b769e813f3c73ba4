import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** devices: routes not built yet. */
export const devicesRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
