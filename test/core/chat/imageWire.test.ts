// A chat prompt with images on the wire of each service, sent over HTTP to the emulator, which checks the parts as
// the specs type them: the routing service's ChatContentImage (`image_url: {url}`, a data: URL allowed) and the
// direct service's InputImageContent (`input_image` with `image_url` and the required `detail`, as the openai SDK's
// ResponseInputImage types it). An image to a model whose list does not say it reads images is refused there too.
import { describe, expect, it } from 'vitest';
import { turnsWithImages } from '../../../src/core/chat/imageTurns.ts';
import { serviceModule } from '../../../src/core/services/registry.ts';
import type { PromptInput } from '../../../src/core/services/module.ts';
import { directOptions } from '../../../src/core/wire/modelOptions.ts';
import type { PromptImage } from '../../../src/shared/promptImages.ts';
import type { ServiceId } from '../../../src/shared/serviceIds.ts';
import { sandboxBed } from '../../emulator/sandboxBed.ts';
import { FAST, settle } from '../clientSupport.ts';

const sandbox = sandboxBed();
const lastBody = () => sandbox.bed.emulator.requests.filter((r) => r.body).at(-1)!.body!;

// A 1x1 PNG's first bytes are enough: the services read the data URL, the emulator its shape.
const image: PromptImage = { id: 'img1', name: 'shot.png', mimeType: 'image/png', base64: 'iVBORw0KGgo=' };
const turns = [
  { role: 'user' as const, content: 'Earlier question' },
  { role: 'assistant' as const, content: 'Earlier answer' },
  { role: 'user' as const, content: 'What is in this picture?' },
];

async function send(service: ServiceId, model: string, input: Omit<PromptInput, 'model'>) {
  const module = serviceModule(service);
  const key = service === 'router' ? sandbox.keys.routerFunded : sandbox.keys.direct;
  const baseUrl = service === 'router' ? sandbox.bed.emulator.routerBaseUrl : sandbox.bed.emulator.directBaseUrl;
  const client = await module.open({ baseUrl, key, ...FAST });
  return settle(module.prompt(client, { model, ...input }, { stream: true }));
}

describe('a chat prompt with an image', () => {
  it('routing service: the last user message carries an image_url part with a data: URL, the earlier turns text', async () => {
    const answer = await send('router', 'openai/gpt-4o', { turns, messages: turnsWithImages(turns, [image]) });
    expect(answer.error).toBeUndefined();
    const messages = lastBody().messages as { role: string; content: unknown }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0]!.content).toBe('Earlier question');
    expect(messages[2]!.content).toEqual([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
  });

  it('direct service: an input_image part with the data URL and the detail the spec requires', async () => {
    const answer = await send('direct', 'gpt-4o-mini', { turns, messages: turnsWithImages(turns, [image]) });
    expect(answer.error).toBeUndefined();
    const input = lastBody().input as { role: string; content: unknown }[];
    expect(input.at(-1)!.content).toEqual([
      { type: 'input_text', text: 'What is in this picture?' },
      { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
    ]);
  });

  it('the routing service refuses an image to a model whose input modalities are text only', async () => {
    const answer = await send('router', 'openai/gpt-4o-mini', { turns, messages: turnsWithImages(turns, [image]) });
    expect(answer.error?.message).toContain('No endpoints found that support image input');
  });

  it("the direct service's vision families are marked as taking images; its text-only models are not", () => {
    const byId = Object.fromEntries(
      directOptions(['gpt-4o', 'gpt-5.4-mini', 'o3', 'o3-mini', 'gpt-3.5-turbo']).map((m) => [
        m.id,
        m.imageInput === true,
      ]),
    );
    expect(byId).toEqual({ 'gpt-4o': true, 'gpt-5.4-mini': true, o3: true, 'o3-mini': false, 'gpt-3.5-turbo': false });
  });
});
