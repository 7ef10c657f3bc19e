// The prompt as the service receives it: the person's words, then each attached piece in a fenced block under a
// line that says what it is. Shared so the chat's "Show what is sent" shows the very text the host sends
// (core/chat/conversation.ts sends it).
import type { Attachment } from './protocol.ts';

/** A fence longer than any run of backticks in `text`, so a diff or a Markdown file cannot close it early. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The line above an attached piece: a file's range, or which context it is. */
function headerOf(a: Attachment): string {
  switch (a.context) {
    case 'problems':
      return `Problems in ${a.fileName}, lines ${a.startLine}-${a.endLine}:`;
    case 'changes':
      return `Changes in the working tree (git diff ${a.fileName}):`;
    case 'terminal':
      return `Selected in the terminal ${a.fileName}:`;
    default:
      return `File ${a.fileName} (${a.languageId}), lines ${a.startLine}-${a.endLine}:`;
  }
}

/** Prompt text with the attached code, as the service receives it. */
export function composePrompt(prompt: string, attachments: readonly Attachment[]): string {
  const blocks = attachments.map((a) => {
    const fence = fenceFor(a.text);
    return `${headerOf(a)}\n${fence}${a.languageId}\n${a.text}\n${fence}`;
  });
  return [prompt, ...blocks].join('\n\n');
}
