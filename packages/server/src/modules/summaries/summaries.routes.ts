import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  IdParam,
  MonthlySummary,
  SummaryArchiveQuery,
  SummaryPdfQuery,
  SummaryQuery,
  summaryArchiveFileName,
  summaryPdfFileName,
} from '@rpm/contracts';
import type { FastifyReply } from 'fastify';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { getMonthlySummary, monthlySummaryPdf, summaryArchive } from './summaries.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const tags = ['summaries'];

/** A PHI download: saved, never kept by a cache. */
const download = (reply: FastifyReply, type: string, fileName: string) =>
  reply
    .type(type)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store');

/** The monthly summary for the physician: JSON, one PDF, and a provider's archive of PDFs. */
export const summariesRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/patients/:id/summary',
    {
      config: { access: 'signed-in' },
      schema: { tags, params: IdParam, querystring: SummaryQuery, response: { 200: MonthlySummary, ...errors } },
    },
    async (request) => getMonthlySummary(deps, signedInContextOf(request), request.params.id, request.query.month),
  );

  app.get(
    '/api/patients/:id/summary.pdf',
    { config: { access: 'signed-in' }, schema: { tags, params: IdParam, querystring: SummaryPdfQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const { month, paper } = request.query;
      const pdf = await monthlySummaryPdf(deps, signedInContextOf(request), id, month, paper);
      return download(reply, 'application/pdf', summaryPdfFileName(id, month)).send(pdf);
    },
  );

  app.get(
    '/api/summaries.zip',
    { config: { access: 'signed-in' }, schema: { tags, querystring: SummaryArchiveQuery } },
    async (request, reply) => {
      const archive = await summaryArchive(deps, signedInContextOf(request), request.query);
      return download(reply, 'application/zip', summaryArchiveFileName(request.query.month)).send(archive);
    },
  );
};
