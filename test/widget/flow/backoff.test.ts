import { expect } from 'chai';
import { backoffDelay, DEFAULT_BACKOFF, sleep } from '../../../widget/flow/backoff.ts';

describe('status polling backoff', () => {
  it('waits longer after each answer that is not final, up to a ceiling', () => {
    const middle = () => 0.5;
    const delays = Array.from({ length: 12 }, (_unused, attempt) => backoffDelay(attempt, DEFAULT_BACKOFF, middle));
    for (let index = 1; index < delays.length; index += 1) expect(delays[index]).to.be.at.least(delays[index - 1]!);
    expect(delays[0]).to.equal(1125);
    expect(delays.at(-1)).to.equal(15_000);
  });

  it('spreads customers out with jitter between half and all of the step', () => {
    expect(backoffDelay(2, DEFAULT_BACKOFF, () => 0)).to.equal(Math.round((1500 * 1.7 ** 2) / 2));
    expect(backoffDelay(2, DEFAULT_BACKOFF, () => 0.999999)).to.equal(Math.round(1500 * 1.7 ** 2));
    const samples = new Set(Array.from({ length: 20 }, () => backoffDelay(3)));
    expect(samples.size).to.be.greaterThan(1);
  });

  it('stops waiting as soon as the checkout is closed', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(new DOMException('closed', 'AbortError'));
    let reason: unknown;
    try {
      await waiting;
    } catch (error) {
      reason = error;
    }
    expect((reason as DOMException).name).to.equal('AbortError');
    expect(performance.now() - started).to.be.below(1000);
  });
});
