import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, IdParam, Note, NoteInput, NotePage, PatientPageQuery } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { addNote, listNotes } from './notes.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Clinical notes of a patient. */
export const notesRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/patients/:id/notes',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['notes'], params: IdParam, querystring: PatientPageQuery, response: { 200: NotePage, ...errors } },
    },
    async (request) =>
      listNotes(deps, signedInContextOf(request), request.params.id, request.query.limit ?? 10, request.query.offset ?? 0),
  );

  app.post(
    '/api/patients/:id/notes',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['notes'], params: IdParam, body: NoteInput, response: { 201: Note, ...errors } },
    },
    async (request, reply) => {
      const note = await addNote(deps, signedInContextOf(request), request.params.id, request.body.content);
      return reply.status(201).send(note);
    },
  );
};
