import { API } from '@onco/domain';
import type { FastifyInstance } from 'fastify';
import type { SessionUser } from './auth';

/** The API areas and their prefixes (spec 3 section 7): the domain's, shared with the console. */
export const AREAS = API;
export type AreaName = keyof typeof AREAS;

export type AreaPlugin = (app: FastifyInstance) => Promise<void>;

/** What the home dashboard asks every module for (docs/decisions.md "Home dashboard"). */
export interface DashboardQuery {
  /** the date range of the counters (inclusive) */
  start: Date;
  end: Date;
  /** zero-based page of the recently completed tests (8 a page) */
  page: number;
}

/** What a domain (identity, reference, requisitions, lab, billing, messages) contributes to a process. */
export interface DomainModule {
  name: string;
  /** routes per API area; the server mounts each at the area's prefix */
  areas: Partial<Record<AreaName, AreaPlugin>>;
  /** collections whose documents carry pending events (the outbox relay scans them) */
  outboxCollections?: string[];
  /** start Kafka consumers (only in processes that run workers); returns a stopper */
  /** the BullMQ queues it owns: their workers run where its consumers run (WORKER_MODULES) */
  queues?: string[];
  startConsumers?: () => Promise<{ stop(): Promise<void> }>;
  /** seed demo data when the database is empty */
  seed?: () => Promise<void>;
  /** its part of the home dashboard, from its own collections and within the user's data scope */
  dashboard?: (user: SessionUser, range: DashboardQuery) => Promise<Record<string, unknown>>;
  /** release the module's own resources (e.g. a browser) after the workers and queues have stopped */
  stop?: () => Promise<void>;
}
