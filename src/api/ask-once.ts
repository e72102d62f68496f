/** One question to a model, no tools, through the session's client (its retries included): the answer's text and usage. */
import type { FinalMessage, ModelClient } from './model-client.js';

export async function askOnce(
  client: ModelClient,
  q: { model: string; prompt: string; system?: string; maxTokens?: number },
  signal: AbortSignal,
): Promise<{ text: string; final: FinalMessage }> {
  const stream = client.stream(
    {
      model: q.model,
      system: q.system ? [{ type: 'text', text: q.system }] : [],
      messages: [{ role: 'user', content: q.prompt }],
      tools: [],
      maxTokens: q.maxTokens ?? 4096,
    },
    signal,
  );
  let step = await stream.next();
  while (!step.done) step = await stream.next();
  const final = step.value;
  return { text: final.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), final };
}
