// Function tools and per-model parameters, as both services take them. The wire shapes follow the official SDKs
// in node_modules: openai `resources/chat/completions/completions.d.ts` (ChatCompletionTool, the chunk's
// delta.tool_calls with index, id, function.name and function.arguments in pieces, finish_reason "tool_calls")
// and `resources/responses/responses.d.ts` (FunctionTool, ResponseFunctionToolCall, the
// response.function_call_arguments.delta / output_item.done events). The model's choice is deterministic: with
// tools offered, a last user message holding `[[tool]]` (or tool_choice "required") calls the first tool with
// `{"prompt": <that message>}`; a tool result last is answered "The tool said: <result>".

export interface OfferedTool {
  name: string;
}

export type ToolPlan = { call: { name: string; arguments: string } } | { answer: string[] } | null;

/** The tools of a request, or an error message naming the field that is wrong. */
export function readTools(tools: unknown, wire: 'chat' | 'responses'): OfferedTool[] | string {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) return '"tools" must be an array';
  const out: OfferedTool[] = [];
  for (const [i, raw] of tools.entries()) {
    const tool = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : undefined;
    if (tool?.type !== 'function') return `tools[${i}].type must be "function"`;
    const fn = wire === 'chat' ? (tool.function as Record<string, unknown> | undefined) : tool;
    if (!fn || typeof fn.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(fn.name))
      return `tools[${i}]${wire === 'chat' ? '.function' : ''}.name must match ^[a-zA-Z0-9_-]{1,64}$`;
    if (fn.parameters !== undefined && (typeof fn.parameters !== 'object' || fn.parameters === null))
      return `tools[${i}] parameters must be a JSON schema object`;
    out.push({ name: fn.name });
  }
  return out;
}

export function readToolChoice(choice: unknown): string | undefined | Error {
  if (choice === undefined) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  if (choice && typeof choice === 'object') return 'required';
  return new Error('"tool_choice" must be "auto", "none", "required" or a named function');
}

/** What the model does with the tools: call one, answer a result, or neither (null: answer as usual). */
export function toolPlan(
  tools: readonly OfferedTool[],
  choice: string | undefined,
  last: { kind: 'user'; text: string } | { kind: 'toolResult'; text: string } | undefined,
): ToolPlan {
  if (last?.kind === 'toolResult') return { answer: ['The tool said: ', last.text] };
  if (tools.length === 0 || choice === 'none' || last?.kind !== 'user') return null;
  if (choice !== 'required' && !last.text.includes('[[tool]]')) return null;
  const prompt = last.text.replace('[[tool]]', '').trim();
  return { call: { name: tools[0]!.name, arguments: JSON.stringify({ prompt }) } };
}

/** A call's arguments streamed in pieces, as the services do. */
export function argumentPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 8) pieces.push(text.slice(i, i + 8));
  return pieces.length > 0 ? pieces : [''];
}

export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'];

/**
 * temperature and reasoning as a model takes them: a value out of range is refused, and so is a parameter the
 * model does not take where the service refuses it (the direct service's reasoning models refuse temperature:
 * "Unsupported parameter: 'temperature' is not supported with this model.", vercel/ai
 * packages/openai/src/responses/__fixtures__/reasoning-model-temperature-error.json).
 */
export function readSampling(
  body: Record<string, unknown>,
  takes: { temperature: boolean; reasoning: boolean },
  refuseUnsupported: boolean,
): { temperature: number | undefined; effort: string | undefined } | { message: string; param: string } {
  const t = body.temperature;
  if (t !== undefined && t !== null) {
    if (typeof t !== 'number' || t < 0 || t > 2)
      return { message: "Invalid 'temperature': expected a number between 0 and 2.", param: 'temperature' };
    if (refuseUnsupported && !takes.temperature)
      return {
        message: "Unsupported parameter: 'temperature' is not supported with this model.",
        param: 'temperature',
      };
  }
  const reasoning = body.reasoning;
  let effort: string | undefined;
  if (reasoning !== undefined && reasoning !== null) {
    const e = typeof reasoning === 'object' ? (reasoning as Record<string, unknown>).effort : undefined;
    if (e !== undefined && (typeof e !== 'string' || !REASONING_EFFORTS.includes(e)))
      return {
        message: `Invalid 'reasoning.effort': expected one of ${REASONING_EFFORTS.join(', ')}.`,
        param: 'reasoning.effort',
      };
    if (refuseUnsupported && !takes.reasoning)
      return {
        message: "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
        param: 'reasoning.effort',
      };
    effort = e as string | undefined;
  }
  return { temperature: typeof t === 'number' ? t : undefined, effort };
}
