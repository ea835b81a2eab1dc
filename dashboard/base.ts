import { consume } from '@lit/context';
import { LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import { localizerContext } from './context.ts';
import { browserLocale, Localizer, type MessageKey } from './i18n/localizer.ts';

/**
 * What every `dash-` component shares: the localizer from context (the browser's locale when used alone), custom
 * states through ElementInternals, and `announce`, which says an async result in the shell's live region.
 */
export class DashElement extends LitElement {
  @consume({ context: localizerContext, subscribe: true })
  @property({ attribute: false })
  localizer: Localizer = new Localizer(browserLocale());

  readonly #internals: ElementInternals = this.attachInternals();

  protected setStates(states: Record<string, boolean>): void {
    for (const [name, on] of Object.entries(states)) {
      if (on) this.#internals.states.add(name);
      else this.#internals.states.delete(name);
    }
  }

  protected t(key: MessageKey, values?: Record<string, string | number>): string {
    return this.localizer.t(key, values);
  }

  /** Asks the shell to read `message` out (its polite live region). */
  protected announce(message: string): void {
    this.dispatchEvent(new AnnounceEvent(message));
  }
}

/** A message for the shell's live region. */
export class AnnounceEvent extends Event {
  static readonly eventName = 'dash-announce';
  constructor(readonly message: string) {
    super(AnnounceEvent.eventName, { bubbles: true, composed: true });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dash-announce': AnnounceEvent;
  }
}
