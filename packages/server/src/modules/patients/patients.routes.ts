import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** patients: routes not built yet. */
export const patientsRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
