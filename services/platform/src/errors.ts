import { MSG } from '@onco/domain';

/** Typed errors: code throws these, one handler (error-handler.ts) maps them to the JSON error shape. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    message: string,
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** 429: too many attempts; the client may try again after `seconds` (the Retry-After header says the same). */
export const tooManyRequests = (seconds: number) =>
  new AppError(
    429,
    'TOO_MANY_REQUESTS',
    `Too many attempts. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
    { retryAfterSeconds: seconds },
  );

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError(400, 'BAD_REQUEST', message, details);
export const unauthorized = (message: string = MSG.unauthorized, details?: Record<string, unknown>) =>
  new AppError(401, 'UNAUTHORIZED', message, details);
export const forbidden = (message: string = MSG.forbidden, details?: Record<string, unknown>) =>
  new AppError(403, 'FORBIDDEN', message, details);
export const notFound = (message: string = MSG.notFound) => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string = MSG.conflict, details?: Record<string, unknown>) =>
  new AppError(409, 'CONFLICT', message, details);
export const unprocessable = (message: string, details?: Record<string, unknown>) =>
  new AppError(422, 'UNPROCESSABLE', message, details);
export const tooLarge = (message: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', message);

/** The one JSON shape of every 4xx/5xx reply. */
export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  requestId?: string;
}
