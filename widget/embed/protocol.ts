import { readBrandTokens } from '../../shared/brand-tokens.ts';
import type { CheckoutStatus } from '../events.ts';

/**
 * The postMessage protocol between the embed script (on the merchant's page) and the checkout frame (on the
 * checkout's origin). Each side posts only to the other's exact origin and accepts a message only when both its
 * origin and its source window are the expected ones; these guards then check the shape, because a page may
 * receive messages from anything it frames or is framed by.
 *
 *   frame  -> parent  ready                     the frame listens; send the settings now (again after 3-D Secure)
 *   parent -> frame   settings                  the checkout's attributes, and whether it is a modal
 *   frame  -> parent  event                     a checkout:* event, without card data
 *   frame  -> parent  resize                    the content's height in CSS pixels
 *   frame  -> parent  escape                    Escape was pressed inside the frame (keys do not cross frames)
 *   frame  -> parent  refused                   the checkout was not opened in the frame: the envelope code and why
 *
 * The settings first travel in the frame's own request (a form embed.js posts into the frame, shared/embed.ts),
 * so the checkout starts without waiting for them; `settings` messages carry what changes afterwards, and
 * the settings again each time the frame says `ready` (after a reload or 3-D Secure, its page comes without them).
 */
export const PROTOCOL = 'ck-checkout/1';

export const EVENT_TYPES = ['checkout:ready', 'checkout:pending', 'checkout:success', 'checkout:error', 'checkout:close'] as const;
export type CheckoutEventType = (typeof EVENT_TYPES)[number];

const STATUSES: readonly CheckoutStatus[] = ['Initiated', 'Pending', 'Failed', 'Successful', 'Reversed'];

/** The attributes of `<ck-checkout>` the embedding page may set; nothing else (no api-base, no redirect-url). */
export const SETTING_NAMES = [
  'api-key',
  'reference',
  'amount',
  'currency',
  'description',
  'items',
  'customer-email',
  'customer-first-name',
  'customer-last-name',
  'customer-mobile',
  'customer-country',
  'locale',
  'theme',
  'client-token',
  'customer-session',
  'brand-color',
  'radius',
  'font',
  'density',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

export interface OrderItem {
  name: string;
  amount: number;
}

export type Settings = Partial<Record<Exclude<SettingName, 'amount' | 'items'>, string>> & { amount?: number; items?: OrderItem[] };

export interface EventDetail {
  type: CheckoutEventType;
  reference: string | null;
  status: CheckoutStatus | null;
  method?: 'card' | 'bank-transfer';
  code?: string;
  message?: string;
}

export type FrameMessage =
  | { protocol: typeof PROTOCOL; kind: 'ready' }
  | { protocol: typeof PROTOCOL; kind: 'event'; event: EventDetail }
  | { protocol: typeof PROTOCOL; kind: 'resize'; height: number }
  | { protocol: typeof PROTOCOL; kind: 'escape' }
  | { protocol: typeof PROTOCOL; kind: 'refused'; code: string; message: string };

export type ParentMessage = { protocol: typeof PROTOCOL; kind: 'settings'; settings: Settings; modal: boolean };

export { colorSchemeFor } from '../styles/color-scheme.ts';

/** The branding settings and the member of `readBrandTokens` each is read as (on both sides of the frame). */
export const BRAND_SETTINGS = { 'brand-color': 'brandColor', radius: 'radius', font: 'font', density: 'density' } as const;
type BrandSetting = keyof typeof BRAND_SETTINGS;
const isBrandSetting = (name: string): name is BrandSetting => name in BRAND_SETTINGS;

/** A branding value in its closed shape (shared/design-tokens.ts); anything else never reaches the checkout. */
export function validBrandSetting(name: BrandSetting, value: unknown): boolean {
  return readBrandTokens({ [BRAND_SETTINGS[name]]: value })[BRAND_SETTINGS[name]] !== undefined;
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;
const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;
const isOptionalText = (value: unknown, max: number): boolean => value === undefined || isText(value, max);

function isItem(value: unknown): value is OrderItem {
  return isObject(value) && isText(value['name'], 200) && typeof value['amount'] === 'number' && Number.isFinite(value['amount']);
}

function isSetting(name: SettingName, value: unknown): boolean {
  if (name === 'amount') return typeof value === 'number' && Number.isFinite(value);
  if (name === 'items') return Array.isArray(value) && value.length <= 100 && value.every(isItem);
  if (isBrandSetting(name)) return typeof value === 'string' && validBrandSetting(name, value);
  return isText(value, name === 'client-token' || name === 'customer-session' ? 2048 : 500);
}

/** The known settings with values of the right type; a bad value is dropped, and the checkout says what is missing. */
function readSettings(value: Loose): Settings {
  const settings: Loose = {};
  for (const name of SETTING_NAMES) if (isSetting(name, value[name])) settings[name] = value[name];
  return settings as Settings;
}

function isEventDetail(value: unknown): value is EventDetail {
  return (
    isObject(value) &&
    (EVENT_TYPES as readonly unknown[]).includes(value['type']) &&
    (value['reference'] === null || isText(value['reference'], 64)) &&
    (value['status'] === null || (STATUSES as readonly unknown[]).includes(value['status'])) &&
    (value['method'] === undefined || value['method'] === 'card' || value['method'] === 'bank-transfer') &&
    isOptionalText(value['code'], 20) &&
    isOptionalText(value['message'], 1000)
  );
}

/** A message the frame sent, in a known shape; anything else is ignored. */
export function asFrameMessage(data: unknown): FrameMessage | undefined {
  if (!isObject(data) || data['protocol'] !== PROTOCOL) return undefined;
  switch (data['kind']) {
    case 'ready':
    case 'escape':
      return data as FrameMessage;
    case 'resize':
      return typeof data['height'] === 'number' && data['height'] >= 0 && data['height'] < 100_000 ? (data as FrameMessage) : undefined;
    case 'event':
      return isEventDetail(data['event']) ? (data as FrameMessage) : undefined;
    case 'refused':
      return isText(data['code'], 20) && isText(data['message'], 1000) ? (data as FrameMessage) : undefined;
    default:
      return undefined;
  }
}

/** A message the embedding page sent, in a known shape; anything else is ignored. */
export function asParentMessage(data: unknown): ParentMessage | undefined {
  if (!isObject(data) || data['protocol'] !== PROTOCOL || data['kind'] !== 'settings' || !isObject(data['settings'])) return undefined;
  return { protocol: PROTOCOL, kind: 'settings', settings: readSettings(data['settings']), modal: data['modal'] === true };
}
