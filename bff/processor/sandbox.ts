import { randomBytes } from 'node:crypto';
import { checkExpiry, digitsOnly, passesLuhn, LUHN_EXEMPT_TEST_CARDS } from '../../shared/card.ts';
import { newNuban } from '../domain/nuban.ts';
import type { CardDetails, Charge, ChargeOutcome, PaymentProcessor, ResponseCode } from './processor.ts';

/**
 * The built-in sandbox acquirer (protocol.md section 6). Test cards decide outcomes; any other Luhn-valid card
 * approves (after 3-D Secure when the order asks for it). Sessions and tokens carry the outcome itself, so the
 * sandbox keeps no state and survives restarts.
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

function decide(code: TestCard['code']): Exclude<ChargeOutcome, { kind: 'authenticate' }> {
  return code === '00' ? { kind: 'approved', cardToken: token() } : { kind: 'declined', code };
}

export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox';

  constructor(private readonly now: () => Date) {}

  async chargeCard(card: CardDetails, charge: Charge): Promise<ChargeOutcome> {
    const number = digitsOnly(card.number);
    if (!passesLuhn(number) && !LUHN_EXEMPT_TEST_CARDS.includes(number)) return { kind: 'declined', code: '14' };
    if (checkExpiry(card.expiryMonth, card.expiryYear, this.now())) return { kind: 'declined', code: '54' };
    const known = TEST_CARDS.find((entry) => entry.number === number);
    const code = known?.code ?? '00';
    if (known?.authenticate || charge.authenticationRequired) return { kind: 'authenticate', session: `sbx3ds_${code}_${randomBytes(8).toString('hex')}` };
    return decide(code);
  }

  async chargeSavedCard(_cardToken: string, _cvv: string, charge: Charge): Promise<ChargeOutcome> {
    if (charge.authenticationRequired) return { kind: 'authenticate', session: `sbx3ds_00_${randomBytes(8).toString('hex')}` };
    return decide('00');
  }

  async completeAuthentication(session: string, passed: boolean): Promise<Exclude<ChargeOutcome, { kind: 'authenticate' }>> {
    if (!passed) return { kind: 'declined', code: '05' };
    const code = /^sbx3ds_(\d\d)_/.exec(session)?.[1] as TestCard['code'] | undefined;
    return decide(code ?? '05');
  }

  async openTransferAccount(): Promise<{ accountNumber: string; bankName: string; bankCode: string }> {
    return { accountNumber: newNuban(SANDBOX_BANK.code), bankName: SANDBOX_BANK.name, bankCode: SANDBOX_BANK.code };
  }
}
