// An answer's versions: Regenerate writes a new answer in the old one's place, and the old one stays reachable
// ("2 of 2", previous and next), as Copilot Chat keeps each response of a request. The turn shown is the version
// chosen; the others ride along on it, in order, so the store, the export and what the next prompt sends see one
// answer per prompt. Pure, for the host (which stores them) and the webview (which draws the switch).
import type { ChatTurn } from './protocol.ts';

/** Versions kept per answer, the oldest dropped first: workspace state is not an archive. */
export const MAX_VERSIONS = 10;

/** The turn alone, without the versions it carries. */
function bare(turn: ChatTurn): ChatTurn {
  const { versions: _versions, versionIndex: _index, ...rest } = turn;
  return rest;
}

/** Every version of the answer in order, the shown one in its place. */
export function answerVersions(turn: ChatTurn): ChatTurn[] {
  const others = (turn.versions ?? []).map(bare);
  const at = Math.max(0, Math.min(turn.versionIndex ?? others.length, others.length));
  return [...others.slice(0, at), bare(turn), ...others.slice(at)];
}

/** Where the shown version stands: `index` 0-based, of `count`. */
export function versionPosition(turn: ChatTurn): { index: number; count: number } {
  const count = (turn.versions?.length ?? 0) + 1;
  return { index: Math.max(0, Math.min(turn.versionIndex ?? count - 1, count - 1)), count };
}

/** The answer showing its version `index`; it keeps the place's id, so the turn around it stays the same turn. */
export function showVersion(turn: ChatTurn, index: number): ChatTurn {
  return fromVersions(answerVersions(turn), index, turn.id);
}

/** Something to read: a failure that brought no text (a 500, a refused key) is not kept as a version. */
const readable = (turn: ChatTurn) => turn.text !== '' || !!turn.refusal;

/** A regenerated answer: `next` is shown, every version of `previous` with something to read stays behind it. */
export function addVersion(previous: ChatTurn, next: ChatTurn): ChatTurn {
  const all = [...answerVersions(previous).filter(readable), bare(next)].slice(-MAX_VERSIONS);
  return fromVersions(all, all.length - 1, next.id);
}

function fromVersions(all: ChatTurn[], index: number, id: string): ChatTurn {
  const at = Math.max(0, Math.min(index, all.length - 1));
  const others = all.filter((_, i) => i !== at);
  const shown = { ...all[at]!, id };
  return others.length > 0 ? { ...shown, versions: others, versionIndex: at } : shown;
}
