import { z } from 'zod';
import { FRAME_FORM_FIELDS } from './frame-form.ts';

export { FRAME_FORM_FIELDS };

/**
 * The form embed.js posts into the checkout's frame (`POST /checkout/frame`, url-encoded, targeting the iframe):
 * the publishable key, the embedding page's origin, and the checkout's settings as JSON, so the frame's own request
 * opens the checkout with its first state and no session request or settings round trip comes before it.
 * The settings are what `<checkout-widget>` would post to the frame (widget/embed/protocol.ts `SETTING_NAMES`);
 * a value of another shape is dropped, as the frame drops it from a message.
 */

const text = (max: number) => z.string().max(max).optional().catch(undefined);

export const frameSettingsSchema = z.object({
  'api-key': text(200),
  reference: text(500),
  amount: z.number().optional().catch(undefined),
  currency: text(500),
  description: text(500),
  items: z
    .array(z.object({ name: z.string().max(200), amount: z.number() }))
    .max(100)
    .optional()
    .catch(undefined),
  'customer-email': text(500),
  'customer-first-name': text(500),
  'customer-last-name': text(500),
  'customer-mobile': text(500),
  'customer-country': text(500),
  locale: text(500),
  theme: text(500),
  'client-token': text(2048),
  'customer-session': text(2048),
  'brand-color': text(500),
  radius: text(500),
  font: text(500),
  density: text(500),
});
export type FrameSettings = z.infer<typeof frameSettingsSchema>;

/** The form as the server reads it; `settings` that are not JSON of that shape leave the checkout to the handshake. */
export const frameFormSchema = z.object({
  [FRAME_FORM_FIELDS.apiKey]: z.string().max(200).default(''),
  [FRAME_FORM_FIELDS.parentOrigin]: z.string().max(300).default(''),
  [FRAME_FORM_FIELDS.settings]: z.string().max(60_000).default('{}'),
  [FRAME_FORM_FIELDS.modal]: z.string().max(5).optional(),
});
