// Syntax highlighting for code blocks in answers: highlight.js core with a set of
// common languages registered one by one, so the panel bundle carries only those.
// No auto-detection: it runs every grammar over the block, which a streamed
// answer cannot afford. The output is escaped HTML with `hljs-*` classes, and it
// still goes through DOMPurify with the rest of the answer.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, grammar] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, grammar);

/** Fence labels people write that the grammars do not name themselves (VS Code language ids among them). */
const ALIASES: Record<string, string> = {
  dotenv: 'bash',
  env: 'bash',
  jsonc: 'json',
  javascriptreact: 'javascript',
  typescriptreact: 'typescript',
  toml: 'ini',
  sh: 'bash',
  zsh: 'bash',
  console: 'shell',
};

/** The label a fence carries, reduced to something safe to put in a class name. */
export function fenceLanguage(info: string): string {
  const word = info.trim().split(/\s+/)[0] ?? '';
  return /^[\w#+.-]{1,32}$/.test(word) ? word.toLowerCase() : '';
}

/**
 * The file a fence names after its language (```ts src/a.ts, ```ts title="src/a.ts", ```ts:src/a.ts), for Apply
 * (issue 21 item 8); '' when it names none. Only path characters pass: it is put in an attribute.
 */
export function fenceFile(info: string): string {
  const trimmed = info.trim();
  const rest = /^[^\s:]*[\s:]+(.*)$/.exec(trimmed)?.[1] ?? '';
  const path = /^(?:(?:path|file|filename|title)=)?["']?([\w.@/\\-]{1,200})["']?$/.exec(rest.trim())?.[1] ?? '';
  return /[\w-]\.[A-Za-z0-9]{1,8}$/.test(path) ? path : '';
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

/** A code block as HTML: highlighted when the language is one we carry, escaped text otherwise. */
export function highlightBlock(code: string, info: string): string {
  const label = fenceLanguage(info);
  const grammar = label ? (ALIASES[label] ?? label) : '';
  const body =
    grammar && hljs.getLanguage(grammar)
      ? hljs.highlight(code, { language: grammar, ignoreIllegals: true }).value
      : escapeHtml(code);
  const langClass = label ? ` language-${label}` : '';
  // The file it names rides on the block (a title survives the sanitiser): the bar shows it and Apply sends it.
  const file = fenceFile(info);
  return `<pre${file ? ` title="${escapeHtml(file)}"` : ''}><code class="hljs${langClass}">${body}</code></pre>\n`;
}

// highlight.js compiles a grammar on its first use, and inside a streaming answer that was the longest pause of
// the stream: the panel compiles them while idle, the most asked-about first. Java is left to its first use: its
// grammar alone took 90–150 ms to compile in a fresh page, longer than an idle moment should be while someone types.
const WARM_FIRST = ['typescript', 'javascript', 'python', 'bash', 'json', 'shell', 'yaml', 'css', 'xml', 'sql'];

/** One step per grammar, each compiling it: run them when the panel is idle. */
export function grammarWarmups(): (() => void)[] {
  return [...new Set([...WARM_FIRST, ...Object.keys(LANGUAGES)])]
    .filter((name) => name !== 'java')
    .map((name) => () => void hljs.highlight('x', { language: name, ignoreIllegals: true }));
}
