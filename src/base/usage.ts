/** Token usage and cost, counted per request and per session. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export function emptyUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  return {
    input_tokens: a.input_tokens + (b.input_tokens ?? 0),
    output_tokens: a.output_tokens + (b.output_tokens ?? 0),
    cache_creation_input_tokens: a.cache_creation_input_tokens + (b.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens: a.cache_read_input_tokens + (b.cache_read_input_tokens ?? 0),
  };
}

/** Every token a usage report counts: sent (fresh, cache writes, cache reads) and received. */
export function totalTokens(u: Usage): number {
  return u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens + u.output_tokens;
}

/** USD per million tokens: input, output, cache write, cache read. */
interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

const PRICES: Array<[RegExp, Price]> = [
  [/opus-4-[1-9]|opus-4-\d{8}|opus-4$|opus-4-0/, { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  [/opus/, { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
  [/haiku-3/, { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 }],
  [/haiku/, { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  [/sonnet|.*/, { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
];

export function priceFor(model: string): Price {
  for (const [re, price] of PRICES) if (re.test(model)) return price;
  return { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
}

/** Client-side cost estimate in USD. */
export function costOf(model: string, u: Usage): number {
  const p = priceFor(model);
  return (
    (u.input_tokens * p.input + u.output_tokens * p.output + u.cache_creation_input_tokens * p.cacheWrite + u.cache_read_input_tokens * p.cacheRead) / 1_000_000
  );
}
