import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** tracking: routes not built yet. */
export const trackingRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
