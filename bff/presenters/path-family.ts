/**
 * The two families of paths the gateway's clients call (`/checkout/...` and TransactPay's `/payment/...`): the few
 * answers they read differently (payment option codes, a redirect address never null) are presented per family.
 */
export type PathFamily = 'checkout' | 'transactpay';
