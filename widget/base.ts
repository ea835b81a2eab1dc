import { consume } from '@lit/context';
import { LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import { localizerContext } from './context.ts';
import { browserLocale, Localizer } from './i18n/localizer.ts';

/**
 * What every `ck-` component shares: the localizer from context (or the browser's locale when used alone), and
 * custom states (`:state(pending)`) set through ElementInternals so a host page can style them without deep
 * selectors.
 */
export class CheckoutElement extends LitElement {
  @consume({ context: localizerContext, subscribe: true })
  @property({ attribute: false })
  localizer: Localizer = new Localizer(browserLocale());

  readonly #internals: ElementInternals = this.attachInternals();

  /** Turns each named custom state on or off. */
  protected setStates(states: Record<string, boolean>): void {
    for (const [name, on] of Object.entries(states)) {
      if (on) this.#internals.states.add(name);
      else this.#internals.states.delete(name);
    }
  }

  protected hasState(name: string): boolean {
    return this.#internals.states.has(name);
  }

  protected t(...args: Parameters<Localizer['t']>): string {
    return this.localizer.t(...args);
  }
}
