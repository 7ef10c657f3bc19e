// The fixed corpus the token estimate is measured on against the real tokenizers (tokenCount.test.ts): code,
// prose, JSON, Markdown, and text in other scripts. Written for this test; no key-shaped string in it.

const code = `import { readFile } from 'node:fs/promises';
import type { Diagnostic } from './types.ts';

/** Reads a file and returns the lines that look like configuration, with their line numbers. */
export async function configLines(path: string, maxLines = 500): Promise<Array<{ line: number; text: string }>> {
  const text = await readFile(path, 'utf8');
  const result: Array<{ line: number; text: string }> = [];
  for (const [index, raw] of text.split(/\\r?\\n/).entries()) {
    if (index >= maxLines) break;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^([A-Za-z_][\\w.]*)\\s*[:=]\\s*(.+)$/.exec(trimmed);
    if (match) result.push({ line: index + 1, text: \`\${match[1]} = \${match[2]}\` });
  }
  return result;
}

export class Reporter {
  private readonly seen = new Map<string, Diagnostic[]>();

  add(file: string, diagnostic: Diagnostic): void {
    const list = this.seen.get(file) ?? [];
    list.push(diagnostic);
    this.seen.set(file, list);
  }

  summary(): string {
    let total = 0;
    for (const list of this.seen.values()) total += list.length;
    return total === 1 ? '1 finding' : \`\${total} findings in \${this.seen.size} files\`;
  }
}
`;

const python = `def merge_intervals(intervals):
    """Merge overlapping intervals and return them sorted by start."""
    if not intervals:
        return []
    intervals = sorted(intervals, key=lambda pair: pair[0])
    merged = [list(intervals[0])]
    for start, end in intervals[1:]:
        last = merged[-1]
        if start <= last[1]:
            last[1] = max(last[1], end)
        else:
            merged.append([start, end])
    return [tuple(pair) for pair in merged]


class Cache:
    def __init__(self, capacity=128):
        self.capacity = capacity
        self.items = {}

    def get(self, key, default=None):
        return self.items.get(key, default)
`;

const prose = `The river had been rising for three days before anyone in the village thought to move the boats. By the
time the schoolteacher walked down to the landing on Thursday morning, the water had covered the lowest step and was
lapping at the second. She stood there for a while with her hands in her coat pockets, watching the brown current
carry branches and a child's red ball past the old mill. Nobody had warned her that the spring would come like this,
all at once, after a winter so dry that the farmers had talked of nothing but wells. When she turned back toward the
square, the baker was already stacking sandbags against his door, and two boys were helping him, laughing as if it
were a game. Perhaps, she thought, it was: the kind of game a place plays with itself every few years, to remember
what it is made of and who will come out to carry the weight.`;

const markdown = `## Installing the command-line tool

1. Download the archive for your platform from the releases page.
2. Unpack it and put \`keyward\` somewhere on your \`PATH\`.
3. Run \`keyward scan .\` in a repository.

| Flag | Meaning | Default |
| --- | --- | --- |
| \`--format\` | \`text\`, \`json\` or \`sarif\` | \`text\` |
| \`--max-file-size-kb\` | Files larger than this are skipped and named | 1024 |

> **Note:** a file that cannot be read is reported with its reason, and the exit status is 2.
`;

const json = JSON.stringify(
  {
    data: [
      {
        id: 'vendor/model-large-2025-01-15',
        name: 'Vendor: Model Large',
        context_length: 131072,
        pricing: { prompt: '0.0000025', completion: '0.00001', request: '0', image: '0.003613' },
        architecture: { modality: 'text+image->text', input_modalities: ['text', 'image'], tokenizer: 'GPT' },
        top_provider: { max_completion_tokens: 16384, is_moderated: true },
        supported_parameters: ['max_tokens', 'temperature', 'top_p', 'tools', 'tool_choice', 'response_format'],
      },
      {
        id: 'other/small-instruct:free',
        name: 'Other: Small Instruct (free)',
        context_length: 32768,
        pricing: { prompt: '0', completion: '0', request: '0', image: '0' },
        architecture: { modality: 'text->text', input_modalities: ['text'], tokenizer: 'Llama3' },
        top_provider: { max_completion_tokens: null, is_moderated: false },
        supported_parameters: ['max_tokens', 'temperature', 'stop', 'seed'],
      },
    ],
  },
  null,
  2,
);

const german = `Die Stadtbibliothek bleibt wegen Renovierungsarbeiten vom ersten bis zum fünfzehnten März geschlossen. Ausgeliehene
Bücher können in dieser Zeit am Rückgabeautomaten neben dem Haupteingang abgegeben werden; Mahngebühren werden für diesen
Zeitraum nicht erhoben. Wir bitten um Verständnis und freuen uns, Sie danach in den neu gestalteten Räumen begrüßen zu dürfen.`;

const french = `Le comité a décidé de reporter la réunion à jeudi prochain, faute de quorum. Les documents préparatoires
restent disponibles sur l'espace partagé ; merci de les relire avant la séance et d'envoyer vos remarques à la secrétaire
d'ici mercredi soir. L'ordre du jour n'a pas changé : budget, calendrier des travaux et questions diverses.`;

const russian = `Вчера вечером в городском парке прошёл концерт местного оркестра. Несмотря на прохладную погоду, послушать
музыку пришло больше тысячи человек. Организаторы обещают, что летом такие концерты будут проходить каждую субботу, а
вход на них останется бесплатным для всех желающих.`;

const chinese = `今天下午，图书馆将举办一场关于城市历史的讲座。主讲人是本地大学的历史学教授，他将介绍这座城市在过去两百年中的变化，
包括老街区的改造、河道的治理以及人口的迁移。讲座免费开放，欢迎市民参加。请提前十分钟入场，并保持会场安静。`;

const japanese = `明日の会議は午前十時から第二会議室で行います。資料は事前に共有フォルダに置いてありますので、
目を通しておいてください。質問がある場合は、会議の前日までに担当者へメールで連絡してください。`;

const logs = `2026-03-14T09:12:44.018Z INFO  server listening on 127.0.0.1:8080 (pid 48213)
2026-03-14T09:12:45.771Z WARN  slow request GET /v1/models 1843ms status=200 bytes=48213
2026-03-14T09:12:47.002Z ERROR upstream timeout after 30000ms: POST /v1/chat/completions retry=2/3
2026-03-14T09:12:49.530Z INFO  request POST /v1/chat/completions status=200 tokens_in=1532 tokens_out=418`;

/** The corpus by kind: each is measured alone, and all together. */
export const TOKEN_CORPUS: Readonly<Record<string, string>> = {
  code,
  python,
  prose,
  markdown,
  json,
  german,
  french,
  russian,
  chinese,
  japanese,
  logs,
};
