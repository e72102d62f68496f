/**
 * AskUserQuestion: the model asks the person one to four multiple-choice questions (with "Other"
 * always open to them, and multi-select when asked for), as Claude Code's tool. Only a person can
 * answer: no rule or mode approves it (dontAsk mode and print mode refuse it), and the answers come
 * back as the input the person's dialog filled in (`answers`: question → answer).
 */
import { defineTool, lazySchema } from '../../base/tool.js';

export interface Question {
  question: string;
  header: string;
  options: Array<{ label: string; description: string }>;
  multiSelect: boolean;
}

export interface AskUserQuestionInput {
  questions: Question[];
  /** Filled in by the person's dialog: question text → the answer (several joined with ", "). */
  answers?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface AskUserQuestionOutput {
  questions: Question[];
  answers: Record<string, string>;
}

const inputSchema = lazySchema((z) =>
  z.strictObject({
    questions: z
      .array(
        z.strictObject({
          question: z.string().min(1, 'the question is empty').describe('The complete question to ask the user, ending with a question mark.'),
          header: z.string().min(1).max(30).describe('A very short label shown as a chip or tag (at most 12 characters is best), e.g. "Auth method".'),
          options: z
            .array(
              z.strictObject({
                label: z.string().min(1).describe('The option as shown, 1–5 words.'),
                description: z.string().describe('What this option means or implies.'),
              }),
            )
            .min(2, 'give at least 2 options')
            .max(4, 'give at most 4 options')
            .describe('The choices (2–4); the user can always answer "Other" with their own text.'),
          multiSelect: z.boolean().describe('true to let the user choose several options.'),
        }),
      )
      .min(1, 'ask at least 1 question')
      .max(4, 'ask at most 4 questions')
      .describe('Questions to ask the user (1–4).'),
    answers: z.looseObject({}).optional().describe('Filled in by the user interface (question → answer): leave it out.'),
    metadata: z.looseObject({}).optional().describe('Optional metadata for tracking; not shown to the user.'),
  }),
);

const DESCRIPTION = `Asks the user multiple choice questions to gather information, clarify ambiguity, understand preferences, make decisions or offer them choices.
Use this tool only when you are blocked on a decision that is genuinely the user's to make: one you cannot resolve from the request, the code, or sensible defaults.
Usage notes:
- Users will always be able to select "Other" to provide custom text input
- Use multiSelect: true to allow multiple answers to be selected for a question
- If you recommend a specific option, make that the first option in the list and add "(Recommended)" at the end of the label
Plan mode note: To switch into plan mode, use EnterPlanMode (not this tool). Once in plan mode, use this tool to clarify requirements or choose between approaches BEFORE finalizing your plan. Do NOT use this tool to ask "Is my plan ready?" or "Should I proceed?": use ExitPlanMode for plan approval.`;

/** `"Which library?"="date-fns"`, as Claude Code quotes the answers. */
function quote(s: string): string {
  return s.replace(/\s+/g, ' ').trim().replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

export const askUserQuestionTool = defineTool<AskUserQuestionInput, AskUserQuestionOutput>({
  name: 'AskUserQuestion',
  description: () => DESCRIPTION,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  answersInInput: true,
  async validateInput(input) {
    if (input.answers && Object.values(input.answers).some((a) => typeof a !== 'string'))
      return { ok: false, message: 'answers maps each question to its answer as text' };
    const seen = new Set<string>();
    for (const q of input.questions) {
      if (seen.has(q.question)) return { ok: false, message: `the question "${q.question}" is asked twice: each question must be different` };
      seen.add(q.question);
      const labels = new Set(q.options.map((o) => o.label));
      if (labels.size !== q.options.length) return { ok: false, message: `the options of "${q.question}" must have different labels` };
    }
    return { ok: true };
  },
  requiresPerson: () => 'only the user can answer these questions',
  async checkPermissions() {
    return { behavior: 'ask', reason: 'the model asks you to choose', suggestions: [] };
  },
  // eslint-disable-next-line require-yield
  async *call(input) {
    if (!input.answers || !Object.keys(input.answers).length) throw new Error('the user gave no answers');
    return { questions: input.questions, answers: input.answers as Record<string, string> };
  },
  toModelResult(output) {
    const pairs = Object.entries(output.answers).map(([q, a]) => `"${quote(q)}"="${quote(a)}"`);
    return { content: `User has answered your questions: ${pairs.join(', ')}. You can now continue with the user's answers in mind.` };
  },
  summary(input) {
    return `Ask: ${input.questions.map((q) => q.header).join(', ')}`;
  },
  display(output) {
    return {
      summary: Object.entries(output.answers)
        .map(([q, a]) => `${q} → ${a}`)
        .join('\n'),
    };
  },
});
