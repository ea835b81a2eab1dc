import { randomBytes } from 'node:crypto';
import { PAYMENT_TYPES, type CreateLinkRequest, type PaymentLink, type Subsidiary } from '../../shared/links.ts';
import { toMajorUnits, toMinorUnits } from '../../shared/money.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { randomAlphanumeric } from '../crypto/api-keys.ts';
import { invalid } from '../errors.ts';
import type { Caller, Merchant } from '../domain/merchant.ts';
import * as links from '../repositories/links.ts';
import type { Storage } from '../storage/storage.ts';

export function toSubsidiary(merchant: Merchant): Subsidiary {
  return {
    id: merchant.id,
    name: merchant.name,
    country: merchant.country,
    supportEmail: merchant.supportEmail,
    customization: merchant.customization,
  };
}

export class LinkService {
  constructor(
    private readonly storage: Storage,
    private readonly publicBaseUrl: string,
  ) {}

  async create(caller: Caller, request: CreateLinkRequest): Promise<{ paymentLink: PaymentLink; subsidiary: Subsidiary }> {
    let amountMinor: number | null = null;
    if (request.Amount !== undefined) {
      const minor = toMinorUnits(request.Amount, request.Currency);
      if (minor === undefined || minor <= 0) {
        throw invalid(`The Amount field has more decimal places than ${request.Currency} allows.`);
      }
      amountMinor = minor;
    }
    const stored = await links.insertLink(this.storage, {
      merchantId: caller.merchant.id,
      mode: caller.mode,
      // 128 random bits, URL-safe: the reference is the capability to pay through the link.
      reference: randomBytes(16).toString('base64url'),
      code: `PL${randomAlphanumeric(10).toUpperCase()}`,
      name: request.Name,
      description: request.Description,
      paymentType: request.PaymentType,
      currency: request.Currency,
      authOption: request.AuthOption,
      amountMinor,
      mobile: request.Mobile ?? null,
      backgroundImage: request.BackgroundImage ?? null,
      website: request.Website ?? null,
      payerLimit: request.Limit ?? 0,
    });
    return { paymentLink: this.present(stored, caller.merchant), subsidiary: toSubsidiary(caller.merchant) };
  }

  findByReference(reference: string): Promise<links.StoredLink | undefined> {
    return links.findLinkByReference(this.storage, reference);
  }

  linkUrl(reference: string): string {
    return `${this.publicBaseUrl}/l/${reference}`;
  }

  present(link: links.StoredLink, merchant: Merchant): PaymentLink {
    return {
      id: link.id,
      name: link.name,
      paymentType: link.paymentType,
      logo: merchant.logoUrl,
      amount: link.amountMinor === null ? null : toMajorUnits(link.amountMinor, link.currency),
      dateCreated: formatTimestamp(link.createdAt),
      reference: link.reference,
      createdBy: merchant.name,
      creatorEmail: merchant.supportEmail,
      isActive: link.isActive,
      currency: link.currency,
      limit: link.payerLimit,
      paymentLinkUrl: this.linkUrl(link.reference),
      appEnvironmentId: link.mode === 'test' ? 1 : 2,
      paymentLinkType: PAYMENT_TYPES[link.paymentType],
      paymentLinkCode: link.code,
      description: link.description,
      authOption: link.authOption,
      website: link.website,
      backgroundImage: link.backgroundImage,
      mobile: link.mobile,
    };
  }
}
