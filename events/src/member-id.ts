/**
 * Rejoin as the same member (docs/decisions.md "Consumer session"): a kafkajs consumer that crashes (Kafka away)
 * and restarts joins its group again as a brand-new member, and the group coordinator, which keeps the old member
 * (a restarted broker reloads it from its log), completes the rebalance only once that member's session has run
 * out: every group waits out SESSION_TIMEOUT_MS after Kafka is back. Rejoining under the member id it had, the
 * consumer is that member: the rebalance completes as soon as every member has rejoined.
 *
 * kafkajs 2.2.4 starts each run (the first, and each restart) with a new ConsumerGroup whose member id is empty;
 * this seam, the only place that touches kafkajs internals, wraps `ConsumerGroup.prototype.joinAndSync` once per
 * process: a group object's first join takes the member id its consumer last had (one consumer = one `cluster`
 * object across its restarts), every join records the id it got, and a leave (a clean stop) forgets it. When the
 * coordinator no longer knows the id (UNKNOWN_MEMBER_ID: the session ran out, or the broker lost its state),
 * kafkajs's own join empties it and joins again at once as a new member.
 */
import { createRequire } from 'node:module';

interface ConsumerGroupLike {
  cluster: object;
  memberId: string | null;
  joinAndSync(): Promise<void>;
  leave(): Promise<void>;
}

const remembered = new WeakMap<object, string>();
const joinedOnce = new WeakSet<object>();
let installed = false;

/** Install the seam (idempotent); `consumer-base.ts` calls it before creating a consumer. */
export function keepMemberIdAcrossRestarts(): void {
  if (installed) return;
  installed = true;
  const proto = (
    createRequire(import.meta.url)('kafkajs/src/consumer/consumerGroup.js') as {
      prototype: ConsumerGroupLike;
    }
  ).prototype;
  const { joinAndSync, leave } = proto;
  if (typeof joinAndSync !== 'function' || typeof leave !== 'function')
    throw new Error(
      'kafkajs has changed: ConsumerGroup has no joinAndSync/leave; revisit events/src/member-id.ts',
    );
  proto.joinAndSync = async function (this: ConsumerGroupLike) {
    const first = !joinedOnce.has(this);
    joinedOnce.add(this);
    const before = remembered.get(this.cluster);
    if (first && !this.memberId && before) this.memberId = before;
    await joinAndSync.call(this);
    if (this.memberId) remembered.set(this.cluster, this.memberId);
  };
  proto.leave = async function (this: ConsumerGroupLike) {
    await leave.call(this);
    remembered.delete(this.cluster);
  };
}

/** The member id a consumer's `cluster` will rejoin under (tests). */
export const rememberedMemberId = (cluster: object): string | undefined => remembered.get(cluster);
