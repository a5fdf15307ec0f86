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

/** Query parameters whose values are logged: paging, sorting and flags, never what a user typed or picked. */
const LOGGED_QUERY_VALUES = new Set([
  'page',
  'perPage',
  'size',
  'sort',
  'sortValue',
  'sortOrder',
  'range',
  'format',
  'version',
  'submit',
  'createPdf',
]);

/**
 * A URL as logged: its path, and of its query the parameter names, with the values of LOGGED_QUERY_VALUES only. A
 * search's text (`q`, `text`, a `filter` naming a patient) is PHI and stays out of the log.
 */
export function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  const kept = [...params.keys()].map((k) =>
    LOGGED_QUERY_VALUES.has(k) ? `${k}=${encodeURIComponent(params.get(k) ?? '')}` : `${k}=[REDACTED]`,
  );
  return `${url.slice(0, at)}?${[...new Set(kept)].join('&')}`;
}

/** What Fastify logs of a request ("incoming request"): its own serializer's fields, the URL as loggedUrl. */
function requestSerializer(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: loggedUrl(req.url ?? ''),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: { req: requestSerializer },
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    base: { service: 'oncotrf' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

export function createLogger(level: string, destination?: DestinationStream) {
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}
