/**
 * StructuredOutput (`--json-schema`): the tool the model calls once, at the end, with its answer in
 * the shape the script asked for. Its input is checked against that JSON Schema (every problem
 * listed); the accepted value becomes the result's `structured_output`.
 */
import { inputValidator, objectSchema, type AjvClass, type InputValidator } from '../../base/schema-check.js';
import { defineTool, lazySchema, type Tool } from '../../base/tool.js';

export const STRUCTURED_OUTPUT = 'StructuredOutput';

/** Appended to the system prompt when the tool is offered. */
export const STRUCTURED_OUTPUT_INSTRUCTION = `When you have the answer, call the ${STRUCTURED_OUTPUT} tool exactly once with it, in the shape its schema requires. That call is how your answer is returned: do not repeat it as text.`;

/** The schema text of --json-schema, checked: a JSON object. Throws one sentence otherwise. */
export function parseJsonSchema(text: string): Record<string, unknown> {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    throw new Error(`--json-schema is not valid JSON: ${(err as Error).message}`);
  }
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw new Error('--json-schema must be a JSON Schema object');
  return schema as Record<string, unknown>;
}

/** `ajv`: where the validator's library comes from (the session loads it with the MCP SDK's bundle). */
export function structuredOutputTool(schema: Record<string, unknown>, ajv: () => Promise<AjvClass>): Tool<Record<string, unknown>, Record<string, unknown>> {
  const apiSchema = objectSchema(schema);
  let validator: Promise<InputValidator | undefined> | undefined;
  return defineTool<Record<string, unknown>, Record<string, unknown>>({
    name: STRUCTURED_OUTPUT,
    description: () => 'Return your final answer in the required shape. Call it exactly once, at the end.',
    inputSchema: lazySchema((z) => z.looseObject({})),
    inputJsonSchema: apiSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    async validateInput(input) {
      // ajv is loaded here on first use.
      validator ??= ajv().then((Ajv) => inputValidator(Ajv, apiSchema));
      const problems = (await validator)?.(input) ?? [];
      return problems.length
        ? { ok: false, message: `The output does not match the schema:\n${problems.join('\n')}\nCall ${STRUCTURED_OUTPUT} again with it corrected.` }
        : { ok: true };
    },
    async checkPermissions() {
      return { behavior: 'allow', reason: 'it only hands the answer back' };
    },
    // eslint-disable-next-line require-yield
    async *call(input) {
      return input;
    },
    toModelResult: () => ({ content: 'The structured output was recorded.' }),
    contextChange: (output) => (state) => {
      state.structuredOutput = output;
    },
    summary: () => 'the final answer',
  });
}
