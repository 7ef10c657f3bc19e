// A prompt is declared once: what the runner takes is what a service module takes, plus which service. The type
// checks below are read by `tsc -p .` (npm test), the runtime line by vitest.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PromptRequest } from '../../../src/core/chat/promptRunner.ts';
import type { PromptInput } from '../../../src/core/services/module.ts';
import type { ServiceId } from '../../../src/shared/serviceIds.ts';

describe('PromptRequest', () => {
  it('is PromptInput plus the service', () => {
    expectTypeOf<Omit<PromptRequest, 'service'>>().toEqualTypeOf<PromptInput>();
    expectTypeOf<PromptRequest['service']>().toEqualTypeOf<ServiceId>();
    const request: PromptRequest = { service: 'router', model: 'm', turns: [] };
    expect(Object.keys(request)).toEqual(['service', 'model', 'turns']);
  });
});
