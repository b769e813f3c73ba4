import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateDeviceBody, Device, DevicesResponse } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { createDevice, getDevices } from './devices.service.ts';

/** Devices: listed for every signed-in user (scoped to their organization), created by admins. */
export const devicesRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.get(
    '/api/devices',
    { config: { access: 'signed-in' }, schema: { tags: ['devices'], response: { 200: DevicesResponse } } },
    async (request) => getDevices(db, signedInContextOf(request)),
  );

  app.post(
    '/api/devices',
    { config: { access: 'admin' }, schema: { tags: ['devices'], body: CreateDeviceBody, response: { 201: Device } } },
    async (request, reply) => reply.status(201).send(await createDevice(db, signedInContextOf(request), request.body)),
  );
};
