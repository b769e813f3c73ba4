import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ModuleDeps } from '../module-deps.ts';

/** Launch from the EHR: the organization's launch settings and matching the EHR's patient (issue 27). */
export const ehrLaunchRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async () => {};
