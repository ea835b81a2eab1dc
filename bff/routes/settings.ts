import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { getSettings, setAllowedOrigins, updateSettings, type MerchantSettings } from '../../shared/contract/settings.ts';
import { invalid, notFound } from '../errors.ts';
import type { Merchant, Mode } from '../domain/merchant.ts';
import { auditTarget, callerOf } from '../plugins/auth.ts';
import { isIpv6Origin, normaliseOrigin } from '../security/origins.ts';
import { ok, route } from './register.ts';

/** The merchant's settings (`shared/contract/settings.ts`): branding, allowed origins, the mode's publishable key. */
async function routes(app: FastifyInstance): Promise<void> {
  const present = async (merchant: Merchant | undefined, mode: Mode): Promise<MerchantSettings> => {
    if (!merchant) throw notFound('No such merchant.');
    const brand = (merchant.customization ?? []).find((entry) => typeof entry['brandColor'] === 'string')?.['brandColor'] as string | undefined;
    return {
      name: merchant.name,
      supportEmail: merchant.supportEmail,
      logoUrl: merchant.logoUrl,
      brandColor: brand ?? null,
      allowedOrigins: merchant.allowedOrigins,
      mode,
      publishableKey: (await app.merchants.publishableKey(merchant.id, mode)) ?? null,
    };
  };

  route(app, getSettings, async (_input, request) => {
    const caller = callerOf(request);
    return ok(await present(await app.merchants.find(caller.merchant.id), caller.mode));
  });

  route(app, updateSettings, async ({ body }, request) => {
    const caller = callerOf(request);
    auditTarget(request, Object.keys(body).join(','));
    return ok(await present(await app.merchants.updateBranding(caller.merchant.id, body), caller.mode));
  });

  route(app, setAllowedOrigins, async ({ body }, request) => {
    const caller = callerOf(request);
    for (const origin of body.origins) {
      if (!normaliseOrigin(origin)) throw invalid(`The origin ${origin} is not an http(s) origin.`, undefined, 'invalid_field');
      if (isIpv6Origin(origin)) throw invalid(`The origin ${origin} names an IPv6 address, which no CSP source can allow; use a host name.`, undefined, 'invalid_field');
    }
    const updated = await app.merchants.setAllowedOrigins(caller.merchant.id, body.origins);
    auditTarget(request, updated?.allowedOrigins.join(' ') || 'none');
    return ok(await present(updated, caller.mode));
  });
}

export default fp(routes, { name: 'settings' });
