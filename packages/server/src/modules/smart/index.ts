import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** SMART Backend Services: client registration, the token endpoint and discovery (issue 27). */
export const smartRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
