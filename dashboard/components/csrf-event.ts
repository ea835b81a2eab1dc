/**
 * The session's new CSRF token after a step-up (the session id changes): the shell keeps it for later calls. Its own
 * file, free of zod, so the shell listens for it without loading the step-up dialog.
 */
export class CsrfTokenEvent extends Event {
  static readonly eventName = 'dash-csrf-token';
  constructor(readonly csrfToken: string) {
    super(CsrfTokenEvent.eventName, { bubbles: true, composed: true });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dash-csrf-token': CsrfTokenEvent;
  }
}
