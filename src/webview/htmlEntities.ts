// markdown-it decodes a named character reference (`&hellip;`) with the `entities` package, whose copy of the HTML
// standard's table of names is 18 KB of the webview's script (a sixth of it in the VSIX). The webview runs in a
// browser, whose HTML parser holds that same table: esbuild.js points markdown-it's `entities` here.
// A reference is read inside an attribute value, where the standard reads a name only with its semicolon when a
// letter or digit follows (`&notit;` stays as it is; in text the parser would take `&not`), as markdown-it's strict
// decoding does. test/webview/htmlEntities.test.ts holds the two to the same answers.

/** One reference as markdown-it hands it (`&` and a name or `#` and digits, then `;`); nothing else is parsed. */
const REFERENCE = /^&#?[a-z0-9]{1,32};$/i;

/** `decodeHTMLStrict` of `entities`, for what markdown-it asks of it, answered by `document`'s own HTML parser. */
export function strictDecoder(document: Document): (text: string) => string {
  // A template's content is inert: parsing into it runs nothing and loads nothing.
  const template = document.createElement('template');
  const decoded = new Map<string, string>();
  return (text) => {
    if (!REFERENCE.test(text)) return text;
    let value = decoded.get(text);
    if (value === undefined) {
      template.innerHTML = `<i title="${text}"></i>`;
      value = template.content.firstElementChild?.getAttribute('title') ?? text;
      decoded.set(text, value);
    }
    return value;
  };
}

/** The name markdown-it imports: the webview's document answers, its decoder made on the first reference. */
export const decodeHTMLStrict = onFirstUse(() => strictDecoder(document));

function onFirstUse(make: () => (text: string) => string): (text: string) => string {
  let decode: ((text: string) => string) | undefined;
  return (text) => (decode ??= make())(text);
}
