import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BillingClaimsSent,
  BillingClosing,
  BillingMonthParam,
  BillingQuery,
  BillingReopenBody,
  BillingReopening,
  BillingReport,
  BillingReportQuery,
  BillingWorklist,
  BillingWorklistQuery,
  ErrorBody,
  IdParam,
  PatientBilling,
  PatientBillingQuery,
} from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { closeBillingMonth, markBillingClaimsSent, reopenBillingMonth } from './billing-month.service.ts';
import { getBillingWorklist } from './billing-worklist.service.ts';
import { exportBillingCsv, getBillingReport, getPatientBilling } from './billing.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * RPM billing: the month's report, its CSV export, the month's worklist, closing, reopening and
 * marking the claims sent, one patient's progress.
 */
export const billingRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/billing',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['billing'], querystring: BillingReportQuery, response: { 200: BillingReport, ...errors } },
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

  app.get(
    '/api/billing/worklist',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['billing'], querystring: BillingWorklistQuery, response: { 200: BillingWorklist, ...errors } },
    },
    async (request) => getBillingWorklist(deps, signedInContextOf(request), request.query),
  );

  app.post(
    '/api/billing/:month/close',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['billing'],
        params: BillingMonthParam,
        response: { 200: BillingClosing, 409: ErrorBody, ...errors },
      },
    },
    async (request) => closeBillingMonth(deps, signedInContextOf(request), request.params.month),
  );

  app.post(
    '/api/billing/:month/reopen',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['billing'],
        params: BillingMonthParam,
        body: BillingReopenBody,
        response: { 200: BillingReopening, 409: ErrorBody, ...errors },
      },
    },
    async (request) => reopenBillingMonth(deps, signedInContextOf(request), request.params.month, request.body),
  );

  app.post(
    '/api/billing/:month/claims-sent',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['billing'],
        params: BillingMonthParam,
        response: { 200: BillingClaimsSent, 409: ErrorBody, ...errors },
      },
    },
    async (request) => markBillingClaimsSent(deps, signedInContextOf(request), request.params.month),
  );

  app.get(
    '/api/patients/:id/billing',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['billing'],
        params: IdParam,
        querystring: PatientBillingQuery,
        response: { 200: PatientBilling, ...errors },
      },
    },
    async (request) => getPatientBilling(deps, signedInContextOf(request), request.params.id, request.query.month),
  );
};
