import { z } from 'zod';
import { successEnvelope } from '../envelope.ts';
import { endpoint } from './endpoint.ts';

/**
 * The merchant's own settings as the dashboard shows and changes them: what the checkout shows customers (business
 * name, support e-mail, logo, brand colour), the web origins allowed to embed it, and the mode's publishable key.
 * Changing them needs `settings.write` and a member's fresh second factor, and is audited.
 */
const tags = ['Settings'];

export const BRAND_COLOR = /^#[0-9a-fA-F]{6}$/;

const httpsUrl = z
  .string()
  .trim()
  .max(2048, { message: 'must be at most 2048 characters' })
  .regex(/^https:\/\/[^\s]+$/, { message: 'must be an https address' });

const origin = z
  .string()
  .trim()
  .max(300, { message: 'must be at most 300 characters' })
  .regex(/^https?:\/\/[^/\s?#]+\/?$/, { message: 'must be an origin such as https://shop.example (scheme, host and port only)' });

export const merchantSettingsSchema = z
  .object({
    name: z.string().meta({ description: 'The business name customers see in the checkout and on its pages.' }),
    supportEmail: z.string(),
    logoUrl: z.string().nullable(),
    brandColor: z.string().nullable().meta({ description: "The checkout's brand colour (`#rrggbb`); null: the default." }),
    allowedOrigins: z.array(z.string()).meta({ description: 'Web origins allowed to embed the checkout (test mode also allows localhost).' }),
    mode: z.enum(['test', 'live']),
    publishableKey: z.string().nullable().meta({ description: "The mode's publishable key (the secret key is shown only when keys are rotated)." }),
  })
  .meta({ id: 'MerchantSettings' });
export type MerchantSettings = z.infer<typeof merchantSettingsSchema>;

export const updateSettingsBodySchema = z
  .object({
    name: z.string().trim().min(1, { message: 'is required' }).max(120, { message: 'must be at most 120 characters' }).optional(),
    supportEmail: z.string().trim().max(254).pipe(z.email({ message: 'must be an e-mail address' })).optional(),
    logoUrl: httpsUrl.nullable().optional().meta({ description: 'An https image; null removes the logo (the checkout shows initials).' }),
    brandColor: z.string().trim().regex(BRAND_COLOR, { message: 'must be a colour such as #0a7d5a' }).nullable().optional(),
  })
  .meta({ id: 'UpdateMerchantSettings' });

export const getSettings = endpoint({
  method: 'GET',
  path: '/checkout/settings',
  auth: 'secret',
  permission: 'orders.read',
  summary: "The merchant's settings",
  description: 'Business name, support e-mail, logo, brand colour, allowed origins and the publishable key of the mode.',
  tags,
  success: successEnvelope(merchantSettingsSchema),
});

export const updateSettings = endpoint({
  method: 'PATCH',
  path: '/checkout/settings',
  auth: 'secret',
  permission: 'settings.write',
  stepUp: { audit: 'settings_changed' },
  summary: "Change the merchant's branding",
  description: 'The members given change (null clears the logo or the brand colour); the checkout and the hosted pages show them from the next page load.',
  tags,
  body: updateSettingsBodySchema,
  success: successEnvelope(merchantSettingsSchema),
  errors: ['VAL400'],
});

export const setAllowedOrigins = endpoint({
  method: 'PUT',
  path: '/checkout/settings/allowed-origins',
  auth: 'secret',
  permission: 'settings.write',
  stepUp: { audit: 'allowed_origins_changed' },
  summary: 'Set the origins allowed to embed the checkout',
  description: 'The whole list (add or remove by sending it changed), normalised to scheme://host[:port]. An IPv6 literal cannot be allowed (no CSP source can name one).',
  tags,
  body: z.object({ origins: z.array(origin).max(50, { message: 'must list at most 50 origins' }) }),
  success: successEnvelope(merchantSettingsSchema),
  errors: ['VAL400'],
});
