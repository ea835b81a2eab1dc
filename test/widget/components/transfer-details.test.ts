import { expect } from 'chai';
import type { CkTransferDetails } from '../../../widget/components/transfer-details.ts';
import '../../../widget/components/transfer-details.ts';
import { Localizer } from '../../../widget/i18n/localizer.ts';
import { TransferExpiredEvent, TransferSentEvent } from '../../../widget/internal-events.ts';
import { formatTimestamp } from '../../../shared/timestamps.ts';
import { expectAccessible } from '../support/axe.ts';
import { activeElement, buttonByText, deepQuery, deepText, press, waitFor } from '../support/dom.ts';
import { transferDetails } from '../support/fixtures.ts';

describe('ck-transfer-details', () => {
  let view: CkTransferDetails;

  async function mount(details = transferDetails()): Promise<CkTransferDetails> {
    view = document.createElement('ck-transfer-details');
    view.details = details;
    view.currency = 'NGN';
    view.localizer = new Localizer('en-NG');
    document.body.append(view);
    await view.updateComplete;
    return view;
  }

  const text = () => deepText(view.shadowRoot!);
  const live = () => deepQuery(view.shadowRoot!, '[aria-live=polite]')!;

  afterEach(() => view.remove());

  it('shows the bank, account number, account name and the exact amount to send', async () => {
    await mount();
    expect(text()).to.include('Transfer exactly ₦12,500.00 to the account below.');
    expect(text()).to.include('Bank Sandbox Bank');
    expect(text()).to.include('Account number 0123456789');
    expect(text()).to.include('Account name Kola Books');
    await expectAccessible(view);
  });

  it('moves focus to the waiting message once the customer says the money is sent', async () => {
    await mount();
    view.addEventListener(TransferSentEvent.eventName, () => (view.waiting = true));
    buttonByText(view.shadowRoot!, 'I have sent the money').focus();
    await press('Enter');
    await waitFor(() => activeElement()?.classList.contains('waiting'));
    expect(activeElement()!.getAttribute('role')).to.equal('status');
    expect(activeElement()!.textContent).to.include('Waiting for your transfer.');
    await expectAccessible(view);
  });

  it('copies the account number and the amount with a button press and confirms it', async () => {
    await mount();
    const copied: string[] = [];
    // Headless Chromium has no system clipboard; record what the page asks it to hold.
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (value: string) => void copied.push(value) } });
    buttonByText(view.shadowRoot!, 'Copy Account number').focus();
    await press('Enter');
    await waitFor(() => live().textContent === 'Account number copied.');
    buttonByText(view.shadowRoot!, 'Copy Amount').focus();
    await press('Space');
    await waitFor(() => live().textContent === 'Amount copied.');
    expect(copied).to.deep.equal(['0123456789', '12500']);
  });

  it('shows "Copied" on the button that was pressed, not elsewhere on the screen', async () => {
    await mount();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async () => undefined } });
    const button = buttonByText(view.shadowRoot!, 'Copy Account number');
    button.focus();
    await press('Enter');
    await waitFor(() => button.textContent!.trim() === 'Copied');
    expect(buttonByText(view.shadowRoot!, 'Copy Amount').textContent!.trim()).to.equal('Copy');
    // Every piece of text saying it was copied that a sighted customer can see is inside the button.
    const walker = document.createTreeWalker(view.shadowRoot!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!/copied/i.test(node.textContent ?? '')) continue;
      const box = node.parentElement!.getBoundingClientRect();
      if (box.width <= 1 && box.height <= 1) continue; // visually hidden: the live region for screen readers
      expect(button.contains(node), `"${node.textContent}" is drawn outside the button`).to.equal(true);
    }
    await expectAccessible(view);
  });

  it('copies with the copy command when the Clipboard API is refused (a frame the page did not grant clipboard-write)', async () => {
    await mount();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async () => Promise.reject(new Error('denied')) } });
    const copied: string[] = [];
    const execCommand = document.execCommand;
    document.execCommand = (command: string) => {
      if (command === 'copy') copied.push((document.activeElement as HTMLTextAreaElement).value);
      return command === 'copy';
    };
    try {
      const button = buttonByText(view.shadowRoot!, 'Copy Amount');
      button.focus();
      await press('Enter');
      await waitFor(() => copied.length === 1);
      expect(text()).not.to.include('Copying failed.');
      expect(activeElement()).to.equal(button);
    } finally {
      document.execCommand = execCommand;
    }
  });

  it('says under its row when copying failed', async () => {
    await mount();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async () => Promise.reject(new Error('denied')) } });
    const execCommand = document.execCommand;
    document.execCommand = () => false;
    try {
      buttonByText(view.shadowRoot!, 'Copy Amount').focus();
      await press('Enter');
      await waitFor(() => text().includes('Copying failed.'));
    } finally {
      document.execCommand = execCommand;
    }
    const row = deepQuery(view.shadowRoot!, '.copy-failed')!.closest('.row')!;
    expect(row.textContent).to.include('Amount');
  });

  it('counts down to the expiry and says so politely at ten minutes, not every second', async () => {
    await mount(transferDetails({ expiresAt: formatTimestamp(new Date(Date.now() + 10 * 60_000 + 1500)) }));
    const timer = deepQuery(view.shadowRoot!, '[role=timer]')!;
    expect(timer.textContent).to.match(/^10:0[12]$/);
    expect(live().textContent).to.equal('');
    await waitFor(() => live().textContent === '10 minutes left to make the transfer.', 4000);
    expect(timer.textContent).to.match(/^(10:00|09:5\d)$/);
  });

  it('tells the shell when the account has expired', async () => {
    const expired: TransferExpiredEvent[] = [];
    await mount(transferDetails({ expiresAt: formatTimestamp(new Date(Date.now() + 1200)) }));
    view.addEventListener(TransferExpiredEvent.eventName, (event) => expired.push(event));
    await waitFor(() => expired.length === 1, 4000);
    expect(deepQuery(view.shadowRoot!, '[role=timer]')!.textContent).to.equal('00:00');
  });

  it('starts waiting when the customer says the money is sent', async () => {
    await mount();
    const sent: TransferSentEvent[] = [];
    view.addEventListener(TransferSentEvent.eventName, (event) => sent.push(event));
    buttonByText(view.shadowRoot!, 'I have sent the money').focus();
    expect(activeElement()!.textContent).to.include('I have sent the money');
    await press('Enter');
    expect(sent).to.have.length(1);
    view.waiting = true;
    await view.updateComplete;
    expect(text()).to.include('Waiting for your transfer.');
    expect(() => buttonByText(view.shadowRoot!, 'I have sent the money')).to.throw();
    await expectAccessible(view);
  });

  it('asks for the rest after a short payment', async () => {
    await mount();
    view.amountDue = 2500;
    await view.updateComplete;
    expect(text()).to.include('We received ₦10,000.00. Send the remaining ₦2,500.00 to the same account to finish paying.');
    expect(text()).to.include('Transfer exactly ₦2,500.00');
    await expectAccessible(view);
  });
});
