import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** notes: routes not built yet. */
export const notesRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
