import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** vitals: routes not built yet. */
export const vitalsRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
