import type { RequisitionModels } from '../models';

/** How `setListEntry` ended: the entry was set, a newer change holds it, the requisition is gone, or every try raced. */
export type ListEntryOutcome = 'set' | 'newer' | 'gone' | 'raced';

/** Tries of the two steps before `setListEntry` gives up ('raced'). */
const ATTEMPTS = 5;

/**
 * Set one entry of a list the requisition keeps of another service's things (`testOrders`, `samples`), by the
 * entry's id, unless the entry already holds a newer change (its events arrive in order on their partition; this
 * guards a replay). Each step is one conditional update of that entry (never the whole list, which other writers
 * change): set it in place where its last change is not newer (`notNewer`, matched inside the entry), or push it
 * where the requisition does not list it yet. When neither matches, the entry is newer or the requisition is gone,
 * unless another writer added the entry between the two steps: then the steps run again.
 */
export async function setListEntry(
  Requisition: RequisitionModels['Requisition'],
  o: {
    requisitionId: string;
    list: 'testOrders' | 'samples';
    /** the entry's id (its field `id`) */
    id: string;
    /** the entry's field holding when it last changed, and this change's time */
    changedField: string;
    changedOn: Date;
    /** what the in-place step matches in the entry besides its id: its last change not newer than this one */
    notNewer: Record<string, unknown>;
    /** the in-place step's `$set` */
    set: Record<string, unknown>;
    /** the entry the push step adds */
    entry: object;
    /** the `$inc` of both steps (none when absent) */
    inc?: Record<string, number>;
    /** the options of the writes and of the read */
    options?: object;
  },
): Promise<ListEntryOutcome> {
  const inc = o.inc ? { $inc: o.inc } : {};
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const inPlace = await Requisition.updateOne(
      { _id: o.requisitionId, [o.list]: { $elemMatch: { id: o.id, ...o.notNewer } } },
      { $set: o.set, ...inc },
      o.options,
    ).exec();
    if (inPlace.matchedCount) return 'set';
    const pushed = await Requisition.updateOne(
      { _id: o.requisitionId, [`${o.list}.id`]: { $ne: o.id } },
      { $push: { [o.list]: o.entry }, ...inc },
      o.options,
    ).exec();
    if (pushed.matchedCount) return 'set';
    const listed = (await Requisition.findById(o.requisitionId, { [o.list]: 1 }, o.options)
      .lean()
      .exec()) as Record<string, { id: string }[] | undefined> | null;
    if (!listed) return 'gone';
    const prior = listed[o.list]?.find((e) => e.id === o.id) as Record<string, unknown> | undefined;
    const priorOn = prior?.[o.changedField] as Date | string | null | undefined;
    if (priorOn && new Date(priorOn) > o.changedOn) return 'newer';
  }
  return 'raced';
}
