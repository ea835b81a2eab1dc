import { createContext } from '@lit/context';
import type { CheckoutApi } from './api/client.ts';
import type { CreateOrderData } from './api/wire.ts';
import type { Localizer } from './i18n/localizer.ts';

/** Shared state the shell provides to every component below it. */
export const apiContext = createContext<CheckoutApi | undefined>(Symbol('ck-api'));
export const localizerContext = createContext<Localizer>(Symbol('ck-localizer'));
export const orderContext = createContext<CreateOrderData | undefined>(Symbol('ck-order'));
