import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BillingClosing,
  BillingMonthParam,
  BillingQuery,
  BillingReport,
  ErrorBody,
  IdParam,
  PatientBilling,
  PatientBillingQuery,
} from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { closeBillingMonth, exportBillingCsv, getBillingReport, getPatientBilling } from './billing.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** RPM billing: the month's report, its CSV export, closing a month, one patient's progress. */
export const billingRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/billing',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['billing'], querystring: BillingQuery, response: { 200: BillingReport, ...errors } },
    },
    async (request) => getBillingReport(deps, signedInContextOf(request), request.query),
  );

  app.get(
    '/api/billing/export.csv',
    { config: { access: 'signed-in' }, schema: { tags: ['billing'], querystring: BillingQuery } },
    async (request, reply) => {
      const csv = await exportBillingCsv(deps, signedInContextOf(request), request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="billing-${request.query.month}.csv"`)
        .send(csv);
    },
  );

  app.post(
    '/api/billing/:month/close',
    {
      config: { access: 'admin' },
      schema: { tags: ['billing'], params: BillingMonthParam, response: { 200: BillingClosing, 409: ErrorBody, ...errors } },
    },
    async (request) => closeBillingMonth(deps, signedInContextOf(request), request.params.month),
  );

  app.get(
    '/api/patients/:id/billing',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['billing'], params: IdParam, querystring: PatientBillingQuery, response: { 200: PatientBilling, ...errors } },
    },
    async (request) => getPatientBilling(deps, signedInContextOf(request), request.params.id, request.query.month),
  );
};
