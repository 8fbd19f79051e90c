import type { ChatMessage, RoleTemplate } from './types';

/** The chat messages for one call; an assistant prefix goes last so the model continues it. */
export function renderMessages<I>(template: RoleTemplate<I, unknown>, input: I, assistantPrefix?: string): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: template.system },
    { role: 'user', content: template.render(input) },
  ];
  if (assistantPrefix) messages.push({ role: 'assistant', content: assistantPrefix });
  return messages;
}

/** The repair request: the conversation so far, the invalid reply, and what was wrong with it. */
export function repairMessages(messages: ChatMessage[], invalidReply: string, problem: string): ChatMessage[] {
  return [
    ...messages,
    { role: 'assistant', content: invalidReply },
    {
      role: 'user',
      content:
        `Your reply could not be used: ${problem}\n` + 'Reply again with only the corrected JSON object matching the schema given above, and no other text.',
    },
  ];
}
