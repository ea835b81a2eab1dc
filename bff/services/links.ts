import { randomBytes } from 'node:crypto';
import { PAYMENT_TYPES, type CreateLinkRequest, type EditLinkRequest, type PaymentLink, type Subsidiary } from '../../shared/links.ts';
import { toMajorUnits } from '../../shared/money.ts';
import { formatTimestamp } from '../../shared/timestamps.ts';
import { randomAlphanumeric } from '../crypto/api-keys.ts';
import { invalid, notFound } from '../errors.ts';
import { DEFAULT_FREQUENCY_ID } from '../domain/links.ts';
import { amountInMinorUnits } from './fees.ts';
import type { Caller, Merchant } from '../domain/merchant.ts';
import * as links from '../repositories/links.ts';
import type { Storage } from '../storage/storage.ts';

export function toSubsidiary(merchant: Merchant): Subsidiary {
  return {
    id: merchant.id,
    name: merchant.name,
    country: merchant.country,
    supportEmail: merchant.supportEmail,
    // An array always: the gateway's sample and its Java, Dart and iOS models read a list, never null.
    customization: merchant.customization ?? [],
    logo: merchant.logoUrl,
  };
}

const notFoundLink = (id: number) => notFound(`No payment link with id ${id} exists for this merchant.`);

/** A link's fixed amount in minor units, refused when it has more decimals than the currency allows. */
/** A link's amount in minor units: no more decimals than the currency has, and within its documented maximum. */
function linkAmount(amount: number, currency: string): number {
  return amountInMinorUnits(amount, currency, 'Amount');
}

/** A plan belongs to SUB links only: given on another link type, it is refused rather than ignored. */
function linkPlanOf(type: 'SC' | 'MC' | 'SUB', frequencyId: number | undefined, numberOfPayments: number | undefined) {
  if (type !== 'SUB' && (frequencyId !== undefined || numberOfPayments !== undefined)) {
    throw invalid(`The ${frequencyId !== undefined ? 'FrequencyId' : 'NumberOfPayments'} field is for SUB (subscription) links only.`);
  }
  return { frequencyId: type === 'SUB' ? (frequencyId ?? DEFAULT_FREQUENCY_ID) : null, numberOfPayments: numberOfPayments ?? null };
}

export class LinkService {
  constructor(
    private readonly storage: Storage,
    private readonly publicBaseUrl: string,
  ) {}

  async create(caller: Caller, request: CreateLinkRequest): Promise<{ paymentLink: PaymentLink; subsidiary: Subsidiary }> {
    const amountMinor = request.Amount === undefined ? null : linkAmount(request.Amount, request.Currency);
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
      ...linkPlanOf(request.PaymentType, request.FrequencyId, request.NumberOfPayments),
    });
    return { paymentLink: this.present(stored, caller.merchant), subsidiary: toSubsidiary(caller.merchant) };
  }

  /** One page of the caller's links (this merchant, this mode), newest first. */
  async list(caller: Caller, page: number, limit: number) {
    const { links: found, total } = await links.listLinks(this.storage, caller.merchant.id, caller.mode, limit, (page - 1) * limit);
    return { links: found, total, page, limit, totalPages: Math.ceil(total / limit) };
  }

  /** Changes what the request gives; the reference, URL, currency and payments stay. */
  async edit(caller: Caller, id: number, request: EditLinkRequest): Promise<{ paymentLink: PaymentLink; subsidiary: Subsidiary }> {
    const current = await this.findOwn(caller, id);
    const updated = await links.updateLink(this.storage, caller.merchant.id, caller.mode, id, {
      name: request.Name,
      description: request.Description,
      paymentType: request.PaymentType,
      authOption: request.AuthOption,
      amountMinor: request.Amount === undefined ? undefined : linkAmount(request.Amount, current.currency),
      mobile: request.Mobile,
      backgroundImage: request.BackgroundImage,
      website: request.Website,
      payerLimit: request.Limit,
      frequencyId: request.FrequencyId,
      numberOfPayments: request.NumberOfPayments,
    });
    if (!updated) throw notFoundLink(id);
    return { paymentLink: this.present(updated, caller.merchant), subsidiary: toSubsidiary(caller.merchant) };
  }

  /** A disabled link's page says so and it takes no new orders; activating it restores both. */
  async setActive(caller: Caller, id: number, active: boolean): Promise<void> {
    const updated = await links.updateLink(this.storage, caller.merchant.id, caller.mode, id, { isActive: active });
    if (!updated) throw notFoundLink(id);
  }

  private async findOwn(caller: Caller, id: number): Promise<links.StoredLink> {
    const link = await links.findLinkById(this.storage, caller.merchant.id, id);
    if (!link || link.mode !== caller.mode) throw notFoundLink(id);
    return link;
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
      paymentLinkCode: link.paymentType,
      description: link.description,
      authOption: link.authOption,
      website: link.website,
      backgroundImage: link.backgroundImage,
      mobile: link.mobile,
      supportCode: link.code,
      paymentCount: link.uses,
      frequencyId: link.paymentType === 'SUB' ? (link.frequencyId ?? DEFAULT_FREQUENCY_ID) : null,
      numberOfPayments: link.paymentType === 'SUB' ? link.numberOfPayments : null,
    };
  }
}
