// Which OpenAI-compatible servers refused `stream_options`. OpenAI's spec sends
// usage in a stream only when asked (`stream_options: {include_usage: true}`),
// and Ollama, vLLM and llama.cpp's server follow it; but some servers (older
// Azure OpenAI api-versions, strict proxies) answer 400 "Unrecognized request
// argument supplied: stream_options". Such a server is asked once, then never
// again for as long as the extension runs: clients are made anew on every key
// or setting change, so the memory lives beside them, keyed by base URL.
export class StreamUsageSupport {
  private readonly refused = new Set<string>();

  /** Whether to ask this server for usage in its streams. */
  asks(baseUrl: string): boolean {
    return !this.refused.has(key(baseUrl));
  }

  refuse(baseUrl: string): void {
    this.refused.add(key(baseUrl));
  }
}

function key(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** A 400 whose body names the field: the server does not know it. */
export function refusesStreamOptions(status: number, text: string): boolean {
  return status === 400 && text.includes('stream_options');
}

export const STREAM_USAGE_SUPPORT = new StreamUsageSupport();
