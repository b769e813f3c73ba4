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

/**
 * Whether an error says the database could not be reached or went away mid-statement (restart,
 * failover, crash recovery): SQLSTATE classes 08 (connection exception) and 57P01-57P03 (shut
 * down, crashed, not yet accepting connections), the driver's lost or refused connections. The
 * statement did not commit unless its COMMIT was answered, so the caller may send it again.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET'].includes(code)))
    return true;
  return (
    typeof message === 'string' &&
    /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/.test(message)
  );
}

/** Whether the database refused a change to a month closed for billing (migration 0954's triggers). */
export const isClosedMonthRefusal = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === CLOSED_MONTH_SQLSTATE;
