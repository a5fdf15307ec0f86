/** Pure rules of the Messages screen (spec 2 section 2.11). */

/** A message and a reply hold at most 512 characters (spec 2 sections 5 and 9); the server refuses longer ones. */
export const MESSAGE_MAX = 512;

/** The count under a message or reply box: '12/512'. */
export const lengthText = (text: string) => `${text.length}/${MESSAGE_MAX}`;

export type MessageStatus = 'ALL' | 'NEW' | 'READ';

/** The status the list opens with: NEW when the dashboard's unread counter sent the user (navigation state). */
export function initialMessageStatus(state: unknown): MessageStatus {
  const s = (state ?? {}) as { messageStatus?: unknown };
  return s.messageStatus === 'NEW' || s.messageStatus === 'READ' ? s.messageStatus : 'ALL';
}

/** The list's filter: threads only, the status as the read flag, and the search when longer than 2 characters. */
export function messagesFilter(status: MessageStatus, q: string): Record<string, unknown> {
  const out: Record<string, unknown> = { isParent: true };
  if (status === 'NEW') out.read = false;
  if (status === 'READ') out.read = true;
  if (q.trim().length > 2) out.q = q.trim();
  return out;
}

/** Which empty text: none at all vs none for the chosen status or search. */
export const emptyKey = (status: MessageStatus, q: string) =>
  status === 'ALL' && q.trim().length <= 2 ? 'messages.emptyAll' : 'messages.emptyFiltered';

/** What a new message opened from an order carries (navigation state `compose`). */
export interface ComposeContext {
  testOrderForm?: { id: string; testRequisitionId?: string | null } | null;
  patient?: { id: string; name?: string | null } | null;
  hospitalLocation?: { id: string; name?: string | null } | null;
}
export function composeFromState(state: unknown): ComposeContext | null {
  const c = (state as { compose?: ComposeContext } | null)?.compose;
  return c && typeof c === 'object' ? c : null;
}
