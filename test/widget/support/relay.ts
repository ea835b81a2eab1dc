import { waitFor } from './dom.ts';

/**
 * Drives a relay frame (relay.html) from the test page: what it was sent, and what it should post. The same
 * server answers on localhost and 127.0.0.1, which the browser treats as two origins.
 */
export const RELAY_PATH = '/test/widget/support/relay.html';

export function otherOrigin(): string {
  const url = new URL(window.location.href);
  url.hostname = url.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
  return url.origin;
}

export class RelayLog {
  readonly received: unknown[] = [];
  /** Each relay that loaded, with its window: a frame left over from an earlier test may still report in late. */
  readonly #loaded: { origin: string; source: MessageEventSource | null }[] = [];
  relayed = 0;
  readonly #listener = (event: MessageEvent) => {
    const data = event.data as { received?: unknown; relayLoaded?: string; relayed?: boolean } | null;
    if (data?.received !== undefined) this.received.push(data.received);
    if (data?.relayLoaded) this.#loaded.push({ origin: data.relayLoaded, source: event.source });
    if (data?.relayed) this.relayed += 1;
  };

  constructor() {
    window.addEventListener('message', this.#listener);
  }

  /** Whether the relay in `frame` has loaded on `origin` (and so listens there). */
  hasLoaded(frame: Window | null | undefined, origin: string): boolean {
    return this.#loaded.some((entry) => entry.source === frame && entry.origin === origin);
  }

  stop(): void {
    window.removeEventListener('message', this.#listener);
  }

  /** Has `frame` post `message` to its parent, and waits until it has (messages from one frame arrive in order). */
  async post(frame: Window, message: unknown): Promise<void> {
    const before = this.relayed;
    this.postLast(frame, message);
    await waitFor(() => this.relayed > before);
  }

  /**
   * Has `frame` post a message that makes the page remove it (a close, an Escape): the frame's acknowledgement may
   * never arrive once it is gone, so the caller waits for what the message does instead.
   */
  postLast(frame: Window, message: unknown): void {
    frame.postMessage({ relay: message }, '*');
  }
}
