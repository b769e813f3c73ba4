import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ALERT_STREAM_DEFAULT_SECONDS,
  ALERT_STREAM_MAX_SECONDS,
  ALERT_STREAM_SESSION_CHECK_MS,
  AcknowledgeAlertBody,
  Alert,
  AlertListQuery,
  AlertMarks,
  AlertPage,
  AlertSettings,
  AlertSettingsBody,
  AlertSummary,
  ErrorBody,
  IdParam,
  MAX_ALERT_STREAMS_PER_SESSION,
  PatientThresholds,
  PatientThresholdsBody,
  ResolveAlertBody,
  WorklistPage,
  WorklistQuery,
} from '@rpm/contracts';
import { Type } from 'typebox';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { checkEscalations } from './alerts.escalation.ts';
import { startAlertJobs } from './alerts.jobs.ts';
import { startAlertHub } from './alerts.live.ts';
import { createAlertNotifier } from './alerts.notify.ts';
import { createAlertStreams } from './alerts.stream.ts';
import { acknowledge, getAlertMarks, resolve } from './alerts.service.ts';
import { reevaluatePatients } from './alerts.reevaluate.ts';
import { checkStaleData } from './alerts.stale.ts';
import { openAlertStream } from './alerts.stream.service.ts';
import {
  getAlertSettings,
  getPatientThresholds,
  putAlertSettings,
  putPatientThresholds,
} from './alerts.thresholds.service.ts';
import { alertSummary, listAlerts, worklist } from './alerts.worklist.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

const StreamQuery = Type.Object(
  { max_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: ALERT_STREAM_MAX_SECONDS })) },
  { additionalProperties: false },
);
const MarksQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, default: 30 })) },
  { additionalProperties: false },
);

/**
 * Clinical alerts: worklist, actions, thresholds, organization settings and the live stream. The
 * plugin also runs this instance's alert listener (LISTEN/NOTIFY) and the job queue, and stops
 * them when the app closes.
 */
export const alertsRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  const notifier = createAlertNotifier({ db: deps.db, log: app.log, config: deps.config });
  const hub = startAlertHub({ pool: deps.db, log: app.log, onChanges: (changes) => notifier.onChanges(changes) });
  const jobs = await startAlertJobs({
    pool: deps.db,
    log: app.log,
    runStaleCheck: async () => ({ ...(await checkStaleData(deps.db)), notified: await notifier.sweep() }),
    runEscalationCheck: (requestId) =>
      checkEscalations({ db: deps.db, mailer: notifier.mailer, publicUrl: deps.config.publicUrl }, { requestId }),
    reevaluate: async (patientIds) => {
      await reevaluatePatients(deps.db, patientIds);
    },
  });
  const streams = createAlertStreams({
    hub,
    log: app.log,
    maxPerSession: MAX_ALERT_STREAMS_PER_SESSION,
    checkEveryMs: ALERT_STREAM_SESSION_CHECK_MS,
  });
  // Open streams end before the server waits for its connections to close.
  app.addHook('preClose', async () => streams.endAll());
  app.addHook('onClose', async () => {
    await jobs.stop();
    await hub.close();
    notifier.close();
  });

  app.get(
    '/api/alerts',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['alerts'], querystring: AlertListQuery, response: { 200: AlertPage, ...errors } },
    },
    async (request) => listAlerts(deps, signedInContextOf(request), request.query),
  );

  app.get(
    '/api/alerts/worklist',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['alerts'], querystring: WorklistQuery, response: { 200: WorklistPage, ...errors } },
    },
    async (request) => worklist(deps, signedInContextOf(request), request.query),
  );

  app.get(
    '/api/alerts/summary',
    { config: { access: 'signed-in' }, schema: { tags: ['alerts'], response: { 200: AlertSummary, ...errors } } },
    async (request) => alertSummary(deps, signedInContextOf(request)),
  );

  app.get(
    '/api/alerts/stream',
    {
      // Opening (and the browser's reopening) a stream is not the person's activity.
      config: { access: 'signed-in', slidesIdle: false },
      schema: { tags: ['alerts'], querystring: StreamQuery, response: { 401: ErrorBody, 403: ErrorBody } },
    },
    async (request, reply) => {
      // The access hook guarantees a session cookie behind every actor.
      const opened = await openAlertStream(deps, signedInContextOf(request), request.sessionToken!);
      await hub.ready;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      res.write(`retry: 2000\n: connected\n\n`);
      const stream = streams.open(res, {
        ...opened,
        maxSeconds: request.query.max_seconds ?? ALERT_STREAM_DEFAULT_SECONDS,
      });
      request.raw.on('close', stream.end);
    },
  );

  app.post(
    '/api/alerts/:id/acknowledge',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['alerts'],
        params: IdParam,
        // No body at all acknowledges without a snooze, as before.
        body: Type.Optional(AcknowledgeAlertBody),
        response: { 200: Alert, ...errors },
      },
    },
    async (request) => acknowledge(deps, signedInContextOf(request), request.params.id, request.body ?? {}),
  );

  app.post(
    '/api/alerts/:id/resolve',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['alerts'], params: IdParam, body: ResolveAlertBody, response: { 200: Alert, ...errors } },
    },
    async (request) => resolve(deps, signedInContextOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/patients/:id/thresholds',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['alerts'], params: IdParam, response: { 200: PatientThresholds, ...errors } },
    },
    async (request) => getPatientThresholds(deps, signedInContextOf(request), request.params.id),
  );

  app.put(
    '/api/patients/:id/thresholds',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['alerts'],
        params: IdParam,
        body: PatientThresholdsBody,
        response: { 200: PatientThresholds, ...errors },
      },
    },
    async (request) => putPatientThresholds(deps, signedInContextOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/patients/:id/alert-marks',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['alerts'], params: IdParam, querystring: MarksQuery, response: { 200: AlertMarks, ...errors } },
    },
    async (request) => getAlertMarks(deps, signedInContextOf(request), request.params.id, request.query.days ?? 30),
  );

  app.get(
    '/api/organizations/:id/alert-settings',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['alerts'], params: IdParam, response: { 200: AlertSettings, ...errors } },
    },
    async (request) => getAlertSettings(deps, signedInContextOf(request), request.params.id),
  );

  app.put(
    '/api/organizations/:id/alert-settings',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['alerts'],
        params: IdParam,
        body: AlertSettingsBody,
        response: { 200: AlertSettings, ...errors },
      },
    },
    async (request) =>
      putAlertSettings(deps, signedInContextOf(request), request.params.id, request.body as AlertSettingsBody),
  );
};
