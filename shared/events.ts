import { z } from 'zod';
import { aliased } from './binding.ts';
import { hasControlCharacters, requiredFreeText, requiredText } from './fields.ts';

/** protocol.md 4.7: the widget reports its own steps; any extra members are kept on the timeline entry. */
export const WIDGET_EVENTS = [
  'opened',
  'option-selected',
  'card-submitted',
  'authentication-started',
  'authentication-finished',
  'transfer-shown',
  'closed',
] as const;

export const trackEventPlainSchema = z
  .object({
    eventname: aliased(requiredFreeText(64), 'eventName', 'event'),
    orderreference: aliased(requiredText(64), 'orderReference', 'reference'),
  })
  .catchall(z.unknown())
  // Extra members are stored on the timeline entry, and stored text cannot hold control characters.
  .superRefine((event, context) => {
    for (const [key, value] of Object.entries(event)) {
      if (/[\u0000-\u001f]/.test(key)) {
        context.addIssue({ code: 'custom', path: [], message: 'a member name contains control characters', input: event });
        return;
      }
      if (typeof value === 'string' && hasControlCharacters(value)) {
        context.addIssue({ code: 'custom', path: [key], message: 'must not contain control characters', input: value });
        return;
      }
    }
  })
  .meta({ id: 'TrackEventPlain', example: { eventname: 'opened', orderreference: 'ORDER-1042' } });
export type TrackEventPlain = z.infer<typeof trackEventPlainSchema>;

export const trackEventResponseSchema = z
  .object({ status: z.literal('success'), statusCode: z.literal('00'), message: z.string(), data: z.null() })
  .meta({ id: 'TrackEventResponse' });
