/**
 * The `assistant` lines of a response, as Claude Code writes them in stream-json: one per content
 * block, sent as soon as the block is complete (before its `content_block_stop` stream event), each
 * with the API message's id, the usage known so far and `stop_reason: null`. The turn's stop reason
 * and total usage are the `result`'s. A response that came without its raw stream (a test double, a
 * client that does not stream) is split into the same lines once it is whole.
 */
import type { AgentEvent, ContentBlock } from '../base/events.js';
import { MessageAccumulator } from '../api/message-accumulator.js';
import { emptyUsage, type Usage } from '../base/usage.js';

type WholeMessage = Extract<AgentEvent, { type: 'assistant_message' }>['message'];

/** The `message` of an assistant line: an API Message holding one block. */
export type BlockMessage = Record<string, unknown> & { id: string; content: ContentBlock[] };

export class AssistantBlocks {
  private acc: MessageAccumulator | undefined;
  /** Ids of the messages whose blocks went out from the stream. */
  private readonly sent = new Set<string>();

  /** The id of the API message whose stream runs (Claude Code's `api_message_id` on stream events). */
  get messageId(): string | undefined {
    return this.acc?.id || undefined;
  }

  /** Feeds a raw stream event; returns the block message to send before it, when it completes a block. */
  onStreamEvent(event: unknown): BlockMessage | undefined {
    const e = event as { type?: unknown; index?: unknown } | null;
    if (!e || typeof e !== 'object') return undefined;
    // Each request (a retry's too) starts its own message.
    if (e.type === 'message_start') this.acc = new MessageAccumulator();
    if (!this.acc) return undefined;
    this.acc.push(e);
    if (e.type !== 'content_block_stop' || typeof e.index !== 'number') return undefined;
    const block = this.acc.block(e.index);
    if (!block || !this.acc.id) return undefined;
    this.sent.add(this.acc.id);
    return blockMessage(this.acc.id, this.acc.model, block, this.acc.usage);
  }

  /** The lines of a whole message whose blocks did not go out from the stream (none when they did). */
  onWholeMessage(message: WholeMessage): BlockMessage[] {
    if (this.sent.has(message.id)) return [];
    const usage = message.usage ?? emptyUsage();
    const content: ContentBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    return content.map((block) => blockMessage(message.id, message.model, block, usage));
  }
}

function blockMessage(id: string, model: string, block: ContentBlock, usage: Usage): BlockMessage {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [block],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...usage },
    context_management: null,
  };
}
