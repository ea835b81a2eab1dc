import { createHmac, randomBytes, type KeyObject } from 'node:crypto';
import { checkExpiry, digitsOnly, passesLuhn, LUHN_EXEMPT_TEST_CARDS } from '../../../shared/card.ts';
import { MAX_AUTH_ATTEMPTS, type DeclineCode } from '../../domain/lifecycle.ts';
import { newNuban } from '../../domain/nuban.ts';
import * as book from '../../repositories/sandbox.ts';
import type { Storage } from '../../storage/storage.ts';
import type { ChargeRequest, ChargeResult, Instrument, LookupResult, PaymentProcessor, RefundLookupResult, RefundRequest, RefundResult, RefundSettled, Settled } from '../port.ts';

/**
 * The built-in sandbox acquirer (protocol.md section 6), for test mode only. Test cards decide outcomes; any other
 * Luhn-valid card approves (after 3-D Secure when the merchant asks for it). It keeps its own book in the database
 * (charges, challenges, card tokens), so a restart forgets nothing, and it runs its own 3-D Secure page
 * (`routes.ts`), whose one-time code it derives from the charge reference.
 */
type TestCard = {
  number: string;
  authenticate: boolean;
  code: '00' | DeclineCode;
  note: string;
  losesAnswer?: boolean;
  /** How many merchant-initiated (recurring) charges its token approves before declining them with 51. */
  recurringApprovals?: number;
};

export const TEST_CARDS: readonly TestCard[] = [
  { number: '5123450000784608', authenticate: true, code: '00', note: "the gateway's own test card (exp 01/39, CVV 193): approves after 3-D Secure" },
  { number: '4242424242424242', authenticate: true, code: '00', note: 'approves after 3-D Secure' },
  { number: '4000008400001629', authenticate: true, code: '05', note: '3-D Secure, then declined: do not honour' },
  { number: '4000000000000002', authenticate: false, code: '05', note: 'declined: do not honour' },
  { number: '4000000000000101', authenticate: false, code: '12', note: 'declined: invalid transaction' },
  { number: '4000000000009995', authenticate: false, code: '51', note: 'declined: insufficient funds' },
  { number: '4000000000000069', authenticate: false, code: '54', note: 'declined: expired card' },
  { number: '4000000000000127', authenticate: false, code: '55', note: 'declined: incorrect PIN' },
  { number: '4000000000000119', authenticate: false, code: '91', note: 'declined: issuer unavailable (requery needed)' },
  {
    number: '4000000000003220',
    authenticate: true,
    code: '00',
    recurringApprovals: 1,
    note: 'approves after 3-D Secure; its token approves one merchant-initiated (recurring) charge, then declines every later one: insufficient funds (51)',
  },
  {
    number: '4000000000000341',
    authenticate: false,
    code: '00',
    losesAnswer: true,
    note: 'approved, but the answer is lost on the way back (a timeout): the payment stays processing until the re-query settles it',
  },
];

export const SANDBOX_BANK = { name: 'Sandbox Bank', code: '999' } as const;

/**
 * Refund outcomes in the sandbox are decided by the amount, as test cards decide charges (a refund has no card to
 * choose): minor units ending in 05 (NGN 100.05, JPY 105) are declined `05`; ending in 41 (NGN 100.41) the refund is
 * made but its answer is lost, so it stays pending until the re-query finds it succeeded. Every other refund of an
 * approved charge or a received transfer succeeds, within what the charge took.
 */
export const SANDBOX_REFUND_DECLINED_ENDING = 5;
export const SANDBOX_REFUND_LOST_ANSWER_ENDING = 41;

/** The sandbox answers like an acquirer whose connection dropped after it took the charge. */
export class SandboxLostAnswerError extends Error {
  constructor() {
    super('the sandbox acquirer took the charge but its answer was lost');
    this.name = 'SandboxLostAnswerError';
  }
}

const newToken = () => `sbx_card_${randomBytes(16).toString('base64url')}`;

export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox';

  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date,
    private readonly settings: { publicBaseUrl: string; otpSecret: KeyObject },
  ) {}

  supports(route: { mode: 'test' | 'live' }): boolean {
    return route.mode === 'test';
  }

  async charge(instrument: Instrument, request: ChargeRequest): Promise<ChargeResult> {
    if (instrument.kind === 'token') {
      const card = await book.findSandboxCard(this.storage, instrument.token);
      if (!card) return this.decide(request, '14', null);
      // A merchant-initiated charge (recurring) never asks the customer; a customer-present one may.
      if (instrument.initiator === 'customer' && request.authenticationRequired) return this.challenge(request, card.code, card.recurringApprovals);
      if (instrument.initiator === 'merchant' && card.code === '00' && card.recurringApprovals !== null) {
        // A charge asked again under the same reference keeps its first answer; a new one uses up an approval.
        const earlier = await book.findCharge(this.storage, request.reference);
        if (earlier) return this.settledOf(earlier);
        const approved = await book.takeRecurringApproval(this.storage, instrument.token);
        return this.decide(request, approved ? '00' : '51', approved ? instrument.token : null);
      }
      return this.decide(request, card.code, card.code === '00' ? instrument.token : null);
    }
    const number = digitsOnly(instrument.card.number);
    if (!passesLuhn(number) && !LUHN_EXEMPT_TEST_CARDS.includes(number)) return this.decide(request, '14', null);
    if (checkExpiry(instrument.card.expiryMonth, instrument.card.expiryYear, this.now())) return this.decide(request, '54', null);
    const known = TEST_CARDS.find((entry) => entry.number === number);
    const code = known?.code ?? '00';
    if (known?.authenticate || request.authenticationRequired) return this.challenge(request, code, known?.recurringApprovals ?? null);
    const token = code === '00' ? newToken() : null;
    // The card the approval tokenised is kept with the charge, in the same statement.
    const result = await this.decide(request, code, token, token ? { recurringApprovals: known?.recurringApprovals ?? null } : undefined);
    if (known?.losesAnswer) throw new SandboxLostAnswerError();
    return result;
  }

  async completeAction(reference: string): Promise<ChargeResult> {
    const charge = await book.findCharge(this.storage, reference);
    if (!charge) return { kind: 'unknown', detail: 'no such challenge' };
    if (charge.state !== 'challenge') return this.settledOf(charge);
    if (charge.passed === null) return { kind: 'unknown', detail: 'the customer has not answered the challenge' };
    const code = charge.passed ? charge.code : '05';
    const token = code === '00' ? newToken() : null;
    if (token) await book.saveSandboxCard(this.storage, token, '00', this.now(), charge.recurringApprovals);
    const decided = (await book.decideChallenge(this.storage, reference, code === '00' ? 'approved' : 'declined', code, token, this.now())) ?? (await book.findCharge(this.storage, reference));
    if (!decided || decided.state === 'challenge') return { kind: 'unknown', detail: 'the challenge could not be decided' };
    const settled = this.settledOf(decided);
    return settled.kind === 'declined' && !charge.passed ? { ...settled, authenticationFailed: true } : settled;
  }

  async lookup(reference: string): Promise<LookupResult> {
    const charge = await book.findCharge(this.storage, reference);
    if (!charge) return { kind: 'not-found' };
    if (charge.state === 'challenge') return charge.passed === null ? { kind: 'pending' } : this.completeAction(reference) as Promise<LookupResult>;
    return this.settledOf(charge);
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    const ending = request.amountMinor % 100;
    const charge = await book.findCharge(this.storage, request.chargeReference);
    // A transfer has no charge in the book: the sandbox bank sends the money back to the account it came from.
    let code = ending === SANDBOX_REFUND_DECLINED_ENDING ? '05' : '00';
    if (charge && (charge.state !== 'approved' || (await book.refundedOfCharge(this.storage, charge.reference)) + request.amountMinor > charge.amountMinor)) {
      code = '12';
    }
    const recorded = await book.recordRefund(
      this.storage,
      { reference: request.reference, chargeReference: request.chargeReference, state: code === '00' ? 'succeeded' : 'failed', code, amountMinor: request.amountMinor, currency: request.currency },
      this.now(),
    );
    if (ending === SANDBOX_REFUND_LOST_ANSWER_ENDING) throw new SandboxLostAnswerError();
    return this.refundOf(recorded);
  }

  async lookupRefund(reference: string): Promise<RefundLookupResult> {
    const refund = await book.findRefund(this.storage, reference);
    return refund ? this.refundOf(refund) : { kind: 'not-found' };
  }

  private refundOf(refund: book.SandboxRefund): RefundSettled {
    if (refund.state === 'succeeded') return { kind: 'succeeded', processorReference: `SBXR-${refund.reference}`, rawCode: 'SBX-00' };
    return { kind: 'declined', code: refund.code as DeclineCode, rawCode: `SBX-${refund.code}` };
  }

  async openTransferAccount(): Promise<{ accountNumber: string; bankName: string; bankCode: string }> {
    return { accountNumber: newNuban(SANDBOX_BANK.code), bankName: SANDBOX_BANK.name, bankCode: SANDBOX_BANK.code };
  }

  /** The challenge behind the sandbox issuer's page, if there is one. */
  findChallenge(reference: string): Promise<book.SandboxCharge | undefined> {
    return book.findCharge(this.storage, reference);
  }

  /**
   * The customer's answer on the issuer's page. Each wrong code is counted atomically; the one that uses up the last
   * try, a right code and "fail" each take the answer in one guarded update, so exactly one request answers.
   */
  async answerChallenge(reference: string, answer: { action: 'approve' | 'fail'; code: string }): Promise<ChallengeAnswer> {
    const now = this.now();
    if (answer.action === 'approve' && answer.code.trim() !== this.oneTimeCode(reference)) {
      const counted = await book.countWrongCode(this.storage, reference, MAX_AUTH_ATTEMPTS, now);
      if (!counted) return { kind: 'closed' };
      return counted.passed === false ? { kind: 'answered' } : { kind: 'retry', attemptsLeft: MAX_AUTH_ATTEMPTS - counted.wrongCodes };
    }
    const taken = await book.answerChallenge(this.storage, reference, answer.action === 'approve', MAX_AUTH_ATTEMPTS, now);
    return taken ? { kind: 'answered' } : { kind: 'closed' };
  }

  /** The issuer's one-time code for a challenge: derived from its reference, so nothing secret is stored. */
  oneTimeCode(reference: string): string {
    const digest = createHmac('sha256', this.settings.otpSecret).update(reference).digest();
    return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, '0');
  }

  private async challenge(request: ChargeRequest, code: string, recurringApprovals: number | null): Promise<ChargeResult> {
    await book.recordCharge(this.storage, { ...this.describe(request), state: 'challenge', code, cardToken: null, recurringApprovals }, this.now());
    return { kind: 'action-required', action: { type: 'redirect', url: `${this.settings.publicBaseUrl}/checkout/3ds/${request.reference}`, reference: request.reference } };
  }

  private async decide(request: ChargeRequest, code: string, token: string | null, newCard?: { recurringApprovals: number | null }): Promise<Settled> {
    const charge = await book.recordCharge(this.storage, { ...this.describe(request), state: code === '00' ? 'approved' : 'declined', code, cardToken: token, recurringApprovals: null }, this.now(), newCard);
    return this.settledOf(charge);
  }

  private describe(request: ChargeRequest) {
    return { reference: request.reference, amountMinor: request.amountMinor, currency: request.currency, merchantName: request.merchantName, instrument: request.instrumentLabel };
  }

  private settledOf(charge: book.SandboxCharge): Settled {
    if (charge.state === 'approved') return { kind: 'approved', rawCode: `SBX-${charge.code}`, cardToken: charge.cardToken };
    return { kind: 'declined', code: charge.code as DeclineCode, rawCode: `SBX-${charge.code}` };
  }
}

/** What the customer's answer on the sandbox issuer's page did. */
export type ChallengeAnswer =
  /** A wrong code with tries left. */
  | { kind: 'retry'; attemptsLeft: number }
  /** This request took the answer (passed, failed, or the last wrong code): the payment service now completes the charge. */
  | { kind: 'answered' }
  /** The challenge had its answer already (a replay, another tab) or does not exist. */
  | { kind: 'closed' };
