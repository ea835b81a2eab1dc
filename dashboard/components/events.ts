import type { Me, Mode } from '../api/session.ts';

/** A sign-in (or an accepted invitation) finished: the shell takes the session and shows `next`. */
export class SignedInEvent extends Event {
  static readonly eventName = 'dash-signed-in';
  constructor(
    readonly me: Me,
    readonly next: string | undefined,
  ) {
    super(SignedInEvent.eventName, { bubbles: true, composed: true });
  }
}

/** The test/live switch was turned. */
export class ModeChangeEvent extends Event {
  static readonly eventName = 'dash-mode-change';
  constructor(readonly mode: Mode) {
    super(ModeChangeEvent.eventName, { bubbles: true, composed: true });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dash-signed-in': SignedInEvent;
    'dash-mode-change': ModeChangeEvent;
  }
}
