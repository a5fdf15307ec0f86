import pino, { type DestinationStream, type LoggerOptions } from 'pino';

/**
 * Paths never written to logs: credentials, tokens and patient fields (names, birth dates, contact data).
 * Fastify logs request/response metadata only (no bodies); these paths also cover anything a handler logs.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'password',
  'oldPassword',
  'newPassword',
  'token',
  'resetToken',
  'credentials',
  'patient',
  '*.password',
  '*.oldPassword',
  '*.newPassword',
  '*.token',
  '*.resetToken',
  '*.credentials',
  '*.patient',
  '*.firstName',
  '*.lastName',
  '*.middleName',
  '*.dateOfBirth',
  '*.insuredName',
  '*.insuredDob',
  '*.mrn',
  '*.email',
  '*.phone',
  '*.address',
  '*.policyNumber',
  'body',
  '*.body',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    base: { service: 'oncotrf' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

export function createLogger(level: string, destination?: DestinationStream) {
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}
