import type { FastifyInstance } from 'fastify';

/** The API areas and their prefixes (spec 3 section 7). */
export const AREAS = {
  uam: '/uam/api/v1',
  portal: '/portal/api/v1',
  oms: '/oms/api/v1',
  bis: '/bis/api/v1',
  cns: '/cns/api/v1',
  dxs: '/dxs/api/v1',
} as const;
export type AreaName = keyof typeof AREAS;

export type AreaPlugin = (app: FastifyInstance) => Promise<void>;

/** What a domain (identity, reference, requisitions, lab, billing, messages) contributes to a process. */
export interface DomainModule {
  name: string;
  /** routes per API area; the server mounts each at the area's prefix */
  areas: Partial<Record<AreaName, AreaPlugin>>;
  /** collections whose documents carry pending events (the outbox relay scans them) */
  outboxCollections?: string[];
  /** start Kafka consumers (only in processes that run workers); returns a stopper */
  startConsumers?: () => Promise<{ stop(): Promise<void> }>;
  /** seed demo data when the database is empty */
  seed?: () => Promise<void>;
  /** release the module's own resources (e.g. a browser) after the workers and queues have stopped */
  stop?: () => Promise<void>;
}
