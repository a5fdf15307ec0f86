/**
 * The audit plugin (docs/audit.md "Reads"): a route that serves PHI declares `config.audit`; before its reply is
 * sent (onSend) the entry is recorded and awaited: the read (allowed), or a 403/404 (refused). When the entry
 * cannot be recorded the request fails with a 503 instead. It also makes the request being served known to the
 * audit trail (AsyncLocalStorage), so a change recorded by a use case knows who and from where.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditAction, AuditRecordType } from '@onco/domain';
import { actorOfRequest, auditUnavailable, runInRequest, type AuditTrail } from './trail';

/** What a PHI route's reply is about: the record, its patient and its accounts. */
export interface AuditSubject {
  id?: string | null;
  patientId?: string | null;
  accountIds?: Array<string | null | undefined>;
  /** an export or a list: its row count */
  count?: number | null;
  /** a list: the patients of the rows served (the entry's `what.patientIds`) */
  patientIds?: Array<string | null | undefined>;
}

/** `config.audit` of a PHI route. */
export interface AuditRouteConfig {
  record: AuditRecordType;
  /** read (default), export or download */
  action?: Extract<AuditAction, 'read' | 'export' | 'download'>;
  /** the subject from the JSON reply, when the handler does not set it (`auditSubject`) */
  subject?: (reply: any, req: FastifyRequest) => AuditSubject | null | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** this route serves PHI: each reply (or 403/404) leaves an audit entry first (audit/plugin.ts) */
    audit?: AuditRouteConfig;
  }
  interface FastifyRequest {
    /** what the reply is about, set by the handler (`auditSubject`) or from the reply (`config.audit.subject`) */
    auditSubject: AuditSubject | null;
    /** the entry of this request is recorded (or being recorded) */
    auditRecorded: boolean;
  }
}

/**
 * `config.audit.subject` of a list route: the patients of the rows served and how many rows. Either list
 * dialect's reply: the spec's `{content}` or ra-data-simple-rest's array.
 */
export function listSubject(
  patientOf: (row: any) => string | null | undefined | Array<string | null | undefined>,
) {
  return (reply: unknown): AuditSubject => {
    const rows: unknown[] = Array.isArray(reply)
      ? reply
      : Array.isArray((reply as { content?: unknown })?.content)
        ? (reply as { content: unknown[] }).content
        : [];
    return { patientIds: rows.flatMap((r) => patientOf(r)), count: rows.length };
  };
}

/** Tell the audit plugin what this request's reply is about (a download, an export, a reply not in JSON). */
export function auditSubject(req: FastifyRequest, subject: AuditSubject): void {
  req.auditSubject = { ...(req.auditSubject ?? {}), ...subject };
}

const configOf = (req: FastifyRequest): AuditRouteConfig | undefined =>
  (req.routeOptions?.config as { audit?: AuditRouteConfig } | undefined)?.audit;

/** The entry a reply leaves: allowed (2xx/3xx), refused (403, 404), or none (401, other 4xx, 5xx). */
function outcomeOf(status: number): 'allowed' | 'refused' | null {
  if (status < 400) return 'allowed';
  if (status === 403 || status === 404) return 'refused';
  return null;
}

async function recordReply(
  trail: AuditTrail,
  req: FastifyRequest,
  reply: FastifyReply,
  cfg: AuditRouteConfig,
) {
  const outcome = outcomeOf(reply.statusCode);
  // no identity (401), a bad request, a server error: no PHI was served and no one to name
  if (!outcome || !req.user) return;
  const subject = req.auditSubject ?? {};
  const params = (req.params ?? {}) as Record<string, unknown>;
  const recordId = subject.id ?? (typeof params.id === 'string' ? params.id : null);
  await trail.record(
    {
      what: {
        type: cfg.record,
        id: recordId,
        patientId: outcome === 'allowed' ? subject.patientId : null,
        ...(outcome === 'allowed' && subject.patientIds ? { patientIds: subject.patientIds } : {}),
      },
      action: cfg.action ?? 'read',
      outcome,
      accountIds: subject.accountIds?.length ? subject.accountIds : undefined,
      status: reply.statusCode,
      count: subject.count ?? null,
    },
    { actor: actorOfRequest(req) },
  );
}

export const auditPlugin = fp(
  async (app: FastifyInstance, opts: { trail: AuditTrail }) => {
    app.decorateRequest('auditSubject', null);
    app.decorateRequest('auditRecorded', false);
    app.addHook('onRequest', (req, _reply, done) => runInRequest(req, done));
    app.addHook('preSerialization', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const cfg = configOf(req);
      if (cfg?.subject && reply.statusCode < 400 && payload && typeof payload === 'object') {
        const found = cfg.subject(payload, req);
        if (found) auditSubject(req, found);
      }
      return payload;
    });
    app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const cfg = configOf(req);
      if (!cfg || req.auditRecorded) return payload;
      req.auditRecorded = true;
      try {
        await recordReply(opts.trail, req, reply, cfg);
      } catch (err) {
        req.log.error({ err: (err as Error).message }, 'audit entry not recorded: the request fails');
        // a stream not sent is closed here (the error reply replaces it)
        const stream = payload as { destroy?: () => void; pipe?: unknown } | null;
        if (stream && typeof stream.pipe === 'function') stream.destroy?.();
        throw auditUnavailable();
      }
      return payload;
    });
  },
  { name: 'audit', dependencies: ['auth'] },
);
