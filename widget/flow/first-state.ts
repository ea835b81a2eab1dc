import { readCreateOrderData } from '../api/client.ts';
import type { CreateOrderData } from '../api/wire.ts';

/**
 * The order the page serving the checkout already made (the frame's own request, a payment-link page): the answer
 * the checkout's first create would get, carried in the page so the first screen needs no request of its own.
 * Taken once, for the order it names, and read through the wire schema as a network answer is; a retry or another
 * order asks the API.
 */
let given: unknown;

export function provideFirstOrder(order: unknown): void {
  given = order;
}

export function takeFirstOrder(reference: string): CreateOrderData | undefined {
  const candidate = given;
  given = undefined;
  if (candidate === undefined) return undefined;
  const order = readCreateOrderData(candidate);
  return order?.order.reference === reference ? order : undefined;
}
