import { randomBytes } from 'node:crypto';
import { checkExpiry, digitsOnly, passesLuhn, LUHN_EXEMPT_TEST_CARDS } from '../../shared/card.ts';
import { newNuban } from '../domain/nuban.ts';
import type { CardDetails, Charge, ChargeOutcome, PaymentProcessor, ResponseCode } from './processor.ts';

/**
 * The built-in sandbox acquirer (protocol.md section 6), for test mode only. Test cards decide outcomes; any
 * other Luhn-valid card approves (after 3-D Secure when the order asks for it). Sessions and tokens carry the
 * outcome itself, so authentication survives restarts; the record of final outcomes (`findOutcome`) is kept in
 * memory for recent charges only, so after a restart an interrupted charge is unknown to it.
 */
type TestCard = { number: string; authenticate: boolean; code: Exclude<ResponseCode, '02' | '04'>; note: string };

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
];

export const SANDBOX_BANK = { name: 'Sandbox Bank', code: '999' } as const;

const token = () => `sbx_card_${randomBytes(16).toString('base64url')}`;

type Settled = Exclude<ChargeOutcome, { kind: 'authenticate' }>;

/** How many recent final outcomes the sandbox remembers for `findOutcome`. */
const REMEMBERED_OUTCOMES = 10_000;

export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox';
  private readonly outcomes = new Map<string, Settled>();

  constructor(private readonly now: () => Date) {}

  async chargeCard(card: CardDetails, charge: Charge): Promise<ChargeOutcome> {
    const number = digitsOnly(card.number);
    if (!passesLuhn(number) && !LUHN_EXEMPT_TEST_CARDS.includes(number)) return this.decide(charge.reference, '14');
    if (checkExpiry(card.expiryMonth, card.expiryYear, this.now())) return this.decide(charge.reference, '54');
    const known = TEST_CARDS.find((entry) => entry.number === number);
    const code = known?.code ?? '00';
    if (known?.authenticate || charge.authenticationRequired) return { kind: 'authenticate', session: this.session(code, charge.reference) };
    return this.decide(charge.reference, code);
  }

  async chargeSavedCard(_cardToken: string, _cvv: string, charge: Charge): Promise<ChargeOutcome> {
    if (charge.authenticationRequired) return { kind: 'authenticate', session: this.session('00', charge.reference) };
    return this.decide(charge.reference, '00');
  }

  async completeAuthentication(session: string, passed: boolean): Promise<Settled> {
    const [, code, reference = ''] = /^sbx3ds_(\d\d)_(?:(PAY[0-9A-F]+)_)?/.exec(session) ?? [];
    return this.decide(reference, passed ? ((code as TestCard['code'] | undefined) ?? '05') : '05');
  }

  async findOutcome(reference: string): Promise<Settled | undefined> {
    return this.outcomes.get(reference);
  }

  /** The session names the outcome the issuer will give and the charge it belongs to. */
  private session(code: TestCard['code'], reference: string): string {
    return `sbx3ds_${code}_${reference}_${randomBytes(8).toString('hex')}`;
  }

  private decide(reference: string, code: TestCard['code']): Settled {
    const outcome: Settled = code === '00' ? { kind: 'approved', cardToken: token() } : { kind: 'declined', code };
    if (reference) {
      this.outcomes.set(reference, outcome);
      if (this.outcomes.size > REMEMBERED_OUTCOMES) this.outcomes.delete(this.outcomes.keys().next().value!);
    }
    return outcome;
  }

  async openTransferAccount(): Promise<{ accountNumber: string; bankName: string; bankCode: string }> {
    return { accountNumber: newNuban(SANDBOX_BANK.code), bankName: SANDBOX_BANK.name, bankCode: SANDBOX_BANK.code };
  }
}
