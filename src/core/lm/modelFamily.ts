// A model's family for VS Code's language-model API. VS Code and other extensions select models by family
// (`lm.selectChatModels({ family: 'gpt-4o' })`), and Copilot's families are the model's own name without its
// owner or snapshot date (`gpt-4o`, `gpt-4o-mini`, `claude-sonnet-4`). The model lists give no family field, so it
// is read from the id, with no table to keep: the last path segment, without a `:variant` (`:free`, `:thinking`) and
// without a snapshot date or `-latest`.

/** A snapshot's date at the end of an id: -2024-08-06, -20241022, -0125 (as gpt-3.5-turbo-0125), or -latest. */
const SNAPSHOT = /-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest)$/;

/** The family VS Code selects by: `openai/gpt-4o-mini` and `gpt-4o-mini-2024-07-18` are both `gpt-4o-mini`. */
export function modelFamily(id: string): string {
  const name = id.slice(id.lastIndexOf('/') + 1);
  const variant = name.indexOf(':');
  const family = (variant >= 0 ? name.slice(0, variant) : name).replace(SNAPSHOT, '');
  return family || id;
}
