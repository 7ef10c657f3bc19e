// Reads the host's sources with the TypeScript compiler and finds (1) every message passed to
// `vscode.l10n.t`, for the l10n bundle, and (2) every user-facing string literal that does not go
// through it. `@vscode/l10n-dev export` only sees calls spelled `l10n.t(...)` (microsoft/vscode-l10n
// l10n-dev/src/ast/queries.ts), and the host calls it as `t(...)` after `const t = vscode.l10n.t`, so
// this follows that alias; its bundle format is l10n-dev's (key = message, or `message/comment` with a
// `{ message, comment }` value).
import ts from 'typescript';

/** One message for the bundle, with the comment a translator reads. */
export interface L10nMessage {
  message: string;
  comment?: string[];
}

/** Where a string bypasses `l10n.t`, or a `t` call whose message the compiler cannot read. */
export interface SourceSpot {
  file: string;
  line: number;
  text: string;
}

export interface HostStrings {
  messages: L10nMessage[];
  /** `t(someVariable)`: the message comes from data; the bundle takes it from `DATA_SOURCES` in scripts/l10n.ts. */
  dynamic: SourceSpot[];
  /** Literals shown to a person without `t`. */
  bypasses: SourceSpot[];
}

/** Calls whose string arguments a person reads (the message and the buttons). */
const SHOWING_CALLS = new Set([
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'showQuickPick',
  'showInputBox',
  'setStatusBarMessage',
  'withProgress',
  'createWebviewPanel',
  'createOutputChannel',
]);

/** Properties a person reads: on quick picks, input boxes, status-bar items, tree items, progress, buttons. */
const SHOWN_PROPERTIES = new Set([
  'label',
  'description',
  'detail',
  'tooltip',
  'title',
  'placeHolder',
  'placeholder',
  'prompt',
  'text',
  'message',
  'validationMessage',
  'accessibilityInformation',
  // The webview's DOM.
  'textContent',
  'ariaLabel',
]);

/** What is not a sentence: empty, punctuation, a codicon like `$(key)`, a number, an acronym, a product's name. */
function hasWords(text: string): boolean {
  const rest = text.replace(/\$\([\w~-]+\)/g, '').replace(/\b(Keyward|VS Code)\b/g, '');
  // A word has lower-case letters: HTTP, URL or an environment variable's name is the same in every language.
  return /\p{Ll}{2,}/u.test(rest);
}

/**
 * A literal a person reads in English on purpose says why, in a comment on its line or before the
 * statement that holds it: `// l10n-ignore: the service's own tier names, also the setting's values`.
 */
function ignored(source: ts.SourceFile, node: ts.Node): boolean {
  const marked = (text: string): boolean => /\/\/ l10n-ignore: \S/.test(text);
  const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
  if (marked(source.text.split('\n')[line] ?? '')) return true;
  for (let at: ts.Node | undefined = node; at && !ts.isSourceFile(at); at = at.parent) {
    const comments = ts.getLeadingCommentRanges(source.text, at.getFullStart()) ?? [];
    if (comments.some((c) => marked(source.text.slice(c.pos, c.end)))) return true;
    if (ts.isStatement(at)) break;
  }
  return false;
}

/** The static text of a literal or a template, or null when the node is neither. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('');
  return null;
}

/** `vscode.l10n.t`, `l10n.t`, or a name bound to one of them in this file. */
function isL10nT(callee: ts.Expression, aliases: Set<string>): boolean {
  if (ts.isIdentifier(callee)) return aliases.has(callee.text);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 't') return false;
  const owner = callee.expression;
  if (ts.isIdentifier(owner)) return owner.text === 'l10n';
  return ts.isPropertyAccessExpression(owner) && owner.name.text === 'l10n';
}

function aliasesOf(source: ts.SourceFile): Set<string> {
  const aliases = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      if (isL10nT(node.initializer, new Set())) aliases.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return aliases;
}

function messageOf(arg: ts.Expression): L10nMessage | null {
  const text = literalText(arg);
  if (text !== null) return ts.isTemplateExpression(arg) ? null : { message: text };
  if (!ts.isObjectLiteralExpression(arg)) return null;
  let message: string | null = null;
  let comment: string[] | undefined;
  for (const property of arg.properties) {
    if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
    if (property.name.text === 'message') message = literalText(property.initializer);
    if (property.name.text === 'comment') {
      const value = property.initializer;
      const single = literalText(value);
      if (single !== null) comment = [single];
      else if (ts.isArrayLiteralExpression(value))
        comment = value.elements.map(literalText).filter((c): c is string => c !== null);
    }
  }
  return message === null ? null : { message, ...(comment ? { comment } : {}) };
}

/**
 * Reads one source file. The host localises through `l10n.t`; the webview through its `s(key, english)`,
 * which reads the host's `panelStrings` (pass `['s']` as `localisers`, and the English fallback is fine).
 */
export function scanHostSource(file: string, text: string, localisers: string[] = []): HostStrings {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const aliases = new Set([...aliasesOf(source), ...localisers]);
  const result: HostStrings = { messages: [], dynamic: [], bypasses: [] };
  const seen = new Set<number>();
  const spot = (node: ts.Node): SourceSpot => ({
    file,
    line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
    text: node.getText().slice(0, 120),
  });
  const flagLiterals = (node: ts.Node): void => {
    // A literal (or a template's own text) with words in a shown place; a `t(...)` call inside is fine.
    if (ts.isCallExpression(node) && isL10nT(node.expression, aliases)) return;
    const text = literalText(node);
    if (text !== null) {
      // An object in a call's arguments is reached twice (as an argument and as an object): once is enough.
      if (hasWords(text) && !ignored(source, node) && !seen.has(node.getStart())) {
        seen.add(node.getStart());
        result.bypasses.push(spot(node));
      }
      if (!ts.isTemplateExpression(node)) return;
    }
    if (ts.isConditionalExpression(node)) {
      flagLiterals(node.whenTrue);
      flagLiterals(node.whenFalse);
      return;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      flagLiterals(node.left);
      flagLiterals(node.right);
      return;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.BarBarToken) {
      flagLiterals(node.right);
      return;
    }
    if (ts.isTemplateExpression(node)) return;
    if (ts.isArrayLiteralExpression(node)) node.elements.forEach(flagLiterals);
    if (ts.isObjectLiteralExpression(node)) visitObject(node);
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) flagLiterals(node.expression);
  };
  const visitObject = (node: ts.ObjectLiteralExpression): void => {
    for (const property of node.properties) {
      if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name)) {
        if (SHOWN_PROPERTIES.has(property.name.text)) flagLiterals(property.initializer);
      }
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (isL10nT(callee, aliases)) {
        const first = node.arguments[0];
        const message = first ? messageOf(first) : null;
        if (message) result.messages.push(message);
        else result.dynamic.push(spot(node));
      } else {
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : null;
        if (name && SHOWING_CALLS.has(name)) node.arguments.forEach(flagLiterals);
      }
    }
    if (ts.isObjectLiteralExpression(node)) visitObject(node);
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      SHOWN_PROPERTIES.has(node.left.name.text)
    )
      flagLiterals(node.right);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return result;
}

/** The bundle l10n-dev writes: sorted keys, `message/comment` keys for commented messages. */
export function bundleOf(messages: L10nMessage[]): Record<string, string | { message: string; comment: string[] }> {
  const entries = new Map<string, string | { message: string; comment: string[] }>();
  for (const { message, comment } of messages) {
    if (comment && comment.length > 0) entries.set(`${message}/${comment.join('')}`, { message, comment });
    else entries.set(message, message);
  }
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Every ASCII letter has an accented twin, so a word that skipped the bundle stays plain ASCII. */
const PSEUDO_FROM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PSEUDO_TO = 'áƀçďéƒĝĥíĵķĺɱñóƥʠŕşţúṽŵẋýžÁƁÇĎÉƑĜĤÍĴĶĹṀÑÓƤǪŔŞŢÚṼŴẊÝŽ';

/**
 * The pseudo-locale (`qps-ploc`, which VS Code offers for exactly this): accented and bracketed, so a
 * string or an argument that skipped `l10n.t` stands out as plain ASCII. Placeholders (`{0}`, `{name}`)
 * and codicons (`$(key)`) stay as they are, or the string would break.
 */
export function pseudoLocalise(message: string): string {
  const to = [...PSEUDO_TO];
  const parts = message.split(/(\{[\w.]+\}|\$\([\w~-]+\))/);
  const body = parts.map((part, i) =>
    i % 2 === 1 ? part : part.replace(/[a-zA-Z]/g, (ch) => to[PSEUDO_FROM.indexOf(ch)]!),
  );
  return `［${body.join('')}］`;
}

/** Whether a shown string came through the pseudo-locale: no English word left in it, arguments included. */
export function isPseudoLocalised(text: string): boolean {
  const rest = text.replace(/\$\([\w~-]+\)/g, '').replace(/\b(Keyward|VS Code)\b/g, '');
  return !/[A-Za-z]{2,}/.test(rest);
}

/**
 * The English a service module hands the host to localise: notices and remedies are objects with `args`
 * beside their `message`, `label` or `description` (core/services/module.ts), and the host passes those
 * to `t` (host/keyCommands.ts, host/statusActions.ts).
 */
export function scanModuleMessages(file: string, text: string): L10nMessage[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: L10nMessage[] = [];
  const collect = (node: ts.Expression): void => {
    if (ts.isConditionalExpression(node)) {
      collect(node.whenTrue);
      collect(node.whenFalse);
      return;
    }
    if (ts.isParenthesizedExpression(node)) return collect(node.expression);
    const text = literalText(node);
    if (text !== null && !ts.isTemplateExpression(node)) found.push({ message: text });
  };
  const named = (property: ts.ObjectLiteralElementLike, name: string) =>
    ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === name;
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node) && node.properties.some((p) => named(p, 'args'))) {
      for (const property of node.properties) {
        if (['message', 'label', 'description'].some((name) => named(property, name)))
          collect((property as ts.PropertyAssignment).initializer);
      }
    }
    // The button of a notice: `open: { label, url }`.
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'open') {
      const value = node.initializer;
      if (ts.isObjectLiteralExpression(value))
        for (const property of value.properties)
          if (named(property, 'label')) collect((property as ts.PropertyAssignment).initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
