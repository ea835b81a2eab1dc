import { expect } from 'chai';
import type { CkStatusPanel, Tone } from '../../../widget/components/status-panel.ts';
import '../../../widget/components/status-panel.ts';
import { expectAccessible } from '../support/axe.ts';
import { activeElement } from '../support/dom.ts';

describe('ck-status-panel', () => {
  let panel: CkStatusPanel;
  afterEach(() => panel.remove());

  it('draws a different shape for each outcome, so colour is never the only signal', async () => {
    const shapes = new Set<string>();
    for (const tone of ['success', 'failure', 'expired', 'error'] as Tone[]) {
      panel = document.createElement('ck-status-panel');
      panel.tone = tone;
      panel.heading = `State ${tone}`;
      document.body.append(panel);
      await panel.updateComplete;
      shapes.add(panel.shadowRoot!.querySelector('svg')!.innerHTML);
      await expectAccessible(panel);
      panel.remove();
    }
    expect(shapes.size).to.equal(4);
  });

  it('moves focus to its heading so screen readers announce the new state', async () => {
    panel = document.createElement('ck-status-panel');
    panel.tone = 'success';
    panel.heading = 'Payment successful';
    document.body.append(panel);
    await panel.updateComplete;
    await panel.focusHeading();
    expect(activeElement()!.textContent).to.equal('Payment successful');
  });
});
