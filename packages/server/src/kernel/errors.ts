import { ApiErrors, CLOSED_MONTH_SQLSTATE } from '@rpm/contracts';

/** An error a service throws on purpose: its status and message are safe to show the caller. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
export const badRequest = (message: string = ApiErrors.badRequest) => new HttpError(400, message);
export const forbidden = (message: string = ApiErrors.forbidden) => new HttpError(403, message);
export const notFound = (message: string = ApiErrors.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** Whether the database refused a change to a month closed for billing (migration 0954's triggers). */
export const isClosedMonthRefusal = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === CLOSED_MONTH_SQLSTATE;
