/**
 * The fields of the form embed.js posts into the checkout's frame (`POST /checkout/frame`; shared/embed.ts reads
 * it). Apart from the schema, so embed.js takes the names without zod.
 */
export const FRAME_FORM_FIELDS = { apiKey: 'api-key', parentOrigin: 'parent-origin', settings: 'settings', modal: 'modal' } as const;
