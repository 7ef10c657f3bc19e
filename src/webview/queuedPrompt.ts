// How a queued prompt joins the box or another queued prompt: texts joined by a blank line, code chips merged.
// Shared by the composer's and the stream's reducers (a queued prompt goes back to the box when its send fails).
import type { Attachment } from '../shared/protocol.ts';
import type { ViewState } from './viewTypes.ts';

/** Two texts for one box: the older first, a blank line between. */
export function joinTexts(first: string, second: string): string {
  return [first, second].filter((text) => text.trim() !== '').join('\n\n');
}

export function mergeAttachments(first: Attachment[], second: Attachment[]): Attachment[] {
  return [...first, ...second.filter((a) => !first.some((b) => b.id === a.id))];
}

/** The queued prompt back in the box (not sent): before what the box holds, its code chips with it. */
export function unqueue(state: ViewState): Pick<ViewState, 'draft' | 'attachments' | 'queued'> {
  if (!state.queued) return { draft: state.draft, attachments: state.attachments, queued: null };
  return {
    draft: joinTexts(state.queued.text, state.draft),
    attachments: mergeAttachments(state.queued.attachments, state.attachments),
    queued: null,
  };
}
