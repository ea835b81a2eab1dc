import type { WireShape } from './wire-types.ts';

/**
 * Every member of every answer with the type the seed gives it (protocol.md 4.9 and the gateway's typed client
 * models): integers where the seed has integer columns, JSON numbers for every amount, strings and booleans
 * elsewhere. Members this service adds beside the gateway's are listed too, so a new member needs a decision.
 */
const envelope = { status: 'str', statusCode: 'str', message: 'str' } as const;

export const SUBSIDIARY: WireShape = { id: 'int', name: 'str', country: 'str', supportEmail: 'str', customization: ['any'], logo: 'str?' };

export const PAYMENT_LINK: WireShape = {
  id: 'int', name: 'str', paymentType: 'str', logo: 'str?', amount: 'num?', dateCreated: 'str', reference: 'str', createdBy: 'str',
  creatorEmail: 'str', isActive: 'bool', currency: 'str', limit: 'int', paymentLinkUrl: 'str', appEnvironmentId: 'int',
  paymentLinkType: 'str', paymentLinkCode: 'str', description: 'str', authOption: 'str', website: 'str?', backgroundImage: 'str?',
  mobile: 'str?', supportCode: 'str', paymentCount: 'int', frequencyId: 'int?', numberOfPayments: 'int?',
};

export const CREATE_LINK: WireShape = { ...envelope, data: { paymentLink: PAYMENT_LINK, subsidiary: SUBSIDIARY } };

export const LINK_LIST: WireShape = { ...envelope, data: [PAYMENT_LINK], pagination: { page: 'int', limit: 'int', total: 'int', totalPages: 'int' } };

const catalogueRecord = { dateCreated: 'str', dateUpdated: 'str?', dateDeleted: 'str?', createdBy: 'int', updatedBy: 'int?', deletedBy: 'int?' } as const;

export const LINK_TYPES: WireShape = {
  ...envelope,
  paymentLinkTypes: [{ id: 'int', code: 'str', paymentLinkName: 'str', description: 'str', status: 'bool', ...catalogueRecord }],
};

export const LINK_STATUS: WireShape = { ...envelope, data: 'any' };

export const FREQUENCIES: WireShape = {
  ...envelope,
  data: [{ hours: 'int', days: 'int', name: 'str', description: 'str', isActive: 'bool?', id: 'int', ...catalogueRecord }],
};

export const BANKS: WireShape = {
  ...envelope,
  data: [
    { id: 'int', name: 'str', bankCode: 'str', countryId: 'int', isMicrofinance: 'bool', isMortgage: 'bool', ussdBankCode: 'str?', logo: 'str?', ...catalogueRecord },
  ],
};

export const CREATE_ORDER: WireShape = {
  ...envelope,
  data: {
    order: {
      reference: 'str', processorReference: 'str', orderPaymentReference: 'str?', amount: 'num', fee: 'num', feeRate: 'num', statusId: 'int',
      status: 'str', currency: 'str', narration: 'str?', paymentLinkId: 'int?', recurringPaymentId: 'int?', paymentLinkReference: 'str?',
      recurringPaymentReference: 'str?', frequencyId: 'int?', numberOfPayments: 'int?',
    },
    subsidiary: SUBSIDIARY,
    customer: { email: 'str?', firstName: 'str', lastName: 'str', mobile: 'str?', country: 'str?' },
    payment: { code: 'str?', source: 'str', selectedOption: 'str?', accountNumber: 'str?', bankProviderName: 'str?' },
    otherPaymentOptions: [{ code: 'str', name: 'str', currency: 'str' }],
    savedCards: [{ token: 'str', brand: 'str', first6: 'str', last4: 'str', expiry: 'str' }],
    canSaveCard: 'bool',
    clientToken: { nullable: { token: 'str', expiresAt: 'str' } },
    subsidiaryOrderSummary: { orderName: 'str', totalAmount: 'num', reference: 'str', currency: 'str', orderItems: [{ name: 'str', amount: 'num' }] },
  },
};

export const FEE: WireShape = {
  ...envelope,
  data: { fee: 'num', amount: 'num', subsidiaryFee: 'num', customerFee: 'num', totalChargedAmount: 'num', paymentOption: 'str', currency: 'str', bearer: 'str' },
};

const orderPayment = {
  orderId: 'int', orderPaymentReference: 'str', currency: 'str', statusId: 'int', orderPaymentResponseCode: 'str', orderPaymentResponseMessage: 'str',
  orderPaymentInstrument: 'str?', remarks: 'str', totalAmount: 'num', fee: 'num',
} as const;

export const PAY: WireShape = {
  ...envelope,
  data: {
    paymentDetail: { redirectUrl: 'str?', recipientAccount: 'str?', paymentReference: 'str' },
    bankTransferDetails: { nullable: { bankAccount: 'str', accountName: 'str', bankName: 'str', bankCode: 'str', amount: 'num', amountPaid: 'num', amountDue: 'num', expiresAt: 'str' } },
    orderPayment,
  },
};

export const STATUS: WireShape = {
  is_final_status: 'bool', requery_needed: 'bool', requery_type: 'str?', status: 'str', status_code: 'str', message: 'str',
  data: {
    payment_reference: 'str?', order_reference: 'str', product_id: 'int', subsidiary_id: 'int', wallet_id: 'int', customer_id: 'int',
    total_charged_amount: 'num', payment_status: 'int', currency_id: 'int', currency: 'str', fee: 'num', subsidiary_fee: 'num',
    customer_fee: 'num', payment_type: 'str?', payment_response_code: 'str?', payment_response_message: 'str?', provider_response_date: 'str?',
    date_payment_confirmed: 'str?', narration: 'str?', remarks: 'str?', parent_transaction_id: 'int?', id: 'int', created_by: 'int',
    updated_by: 'int', deleted_by: 'int?', date_created: 'str', date_updated: 'str?', date_deleted: 'str?', amount_due: 'num',
    amount_received: 'num', excess_amount: 'num', transfer_expires_at: 'str?', amount_refunded: 'num',
  },
};

/** `/payment/order/status`: the TransactPay shape its Kotlin and iOS SDKs read. */
export const TRANSACTPAY_STATUS: WireShape = {
  ...envelope,
  data: {
    isFinalStatus: 'bool', requeryNeeded: 'bool', requeryType: 'str?',
    orderSummary: {
      id: 'int', paymentReference: 'str?', orderReference: 'str', totalChargedAmount: 'num', fee: 'num', subsidiaryFee: 'num', statusId: 'int', status: 'str',
      paymentType: 'str?', currencyId: 'int', currency: 'str', paymentResponseCode: 'str?', paymentResponseMessage: 'str?', providerResponseDate: 'str?',
      datePaymentConfirmed: 'str?', dateCreated: 'str', narration: 'str', remarks: 'str?',
    },
    orderPayments: [
      {
        orderId: 'int', orderPaymentReference: 'str', paymentOptionId: 'int', statusId: 'int', orderPaymentResponseCode: 'str', orderPaymentResponseMessage: 'str',
        orderPaymentInstrument: 'str?', remarks: 'str', providerReference: 'str', providerResponseCode: 'str', paymentUrl: 'str', externalReference: 'str',
        authOption: 'str?', order: 'str?', id: 'int?', dateCreated: 'str?', dateUpdated: 'str?', dateDeleted: 'str?', createdBy: 'int?', updatedBy: 'int?', deletedBy: 'int?',
      },
    ],
  },
};

const refund = {
  refundReference: 'str', orderReference: 'str', paymentReference: 'str', amount: 'num', currency: 'str', reason: 'str?', statusId: 'int', status: 'str',
  responseCode: 'str?', responseMessage: 'str?', processorReference: 'str?', dateCreated: 'str', dateUpdated: 'str', dateCompleted: 'str?',
} as const;

export const REFUND: WireShape = {
  ...envelope,
  data: {
    refund,
    order: { orderReference: 'str', statusId: 'int', status: 'str', currency: 'str', amountPaid: 'num', amountRefunded: 'num', amountRefundable: 'num' },
  },
};

export const VERIFY: WireShape = {
  ...envelope,
  data: {
    orderReference: 'str', paymentReference: 'str?', productName: 'str', totalAmountCharged: 'num', amount: 'num', statusId: 'int', status: 'str',
    paymentMethod: 'str?', paymentResponseCode: 'str?', paymentResponseMessage: 'str?', narration: 'str?', remarks: 'str?', currencyId: 'int',
    currencyName: 'str', paymentLinkId: 'int?', paymentLinkReference: 'str?', recurringPaymentId: 'int?', recurringPaymentReference: 'str?',
    recurringPeriod: 'int?', fee: 'num', feeRate: 'num', subsidiaryFee: 'num', customerFee: 'num', dateCreated: 'str', dateUpdated: 'str?', datePaymentConfirmed: 'str?',
    orderPayments: [
      {
        ...orderPayment, paymentOptionId: 'int', paymentOption: 'str', status: 'str', responseCode: 'str', responseMessage: 'str', dateCreated: 'str',
        dateUpdated: 'str', datePaymentConfirmed: 'str?', amountReceived: 'num?', excessAmount: 'num?',
      },
    ],
    customer: {
      customerId: 'str', firstName: 'str', lastName: 'str', emailAddress: 'str?', mobileNumber: 'str?', countryShortName: 'str?', email: 'str?',
      mobile: 'str?', country: 'str?',
    },
    cardDetails: [
      {
        orderPaymentId: 'int', status: 'bool', country: 'str?', cardToken: 'str?', cardExpiryMonth: 'str?', cardExpiryYear: 'str?', cardType: 'str?',
        cardIssuer: 'str?', cardFirstSixDigits: 'str?', cardLastFourDigits: 'str?', dateCreated: 'str', appEnvironmentId: 'int', cardExpiry: 'str?',
        orderPaymentReference: 'str',
      },
    ],
    paymentLink: { nullable: PAYMENT_LINK },
    amountRefunded: 'num',
    amountRefundable: 'num',
    refunds: [refund],
    subsidiary: { id: 'int', name: 'str' },
    orderOrigin: 'str',
  },
};

/** A subscription as the merchant's list and the subscription.* webhooks show it (this service's own answer). */
export const SUBSCRIPTION: WireShape = {
  id: 'int', reference: 'str', status: 'str', paymentLinkId: 'int?', paymentLinkReference: 'str?', orderReference: 'str',
  customer: { email: 'str?', firstName: 'str', lastName: 'str', mobile: 'str?' }, amount: 'num', currency: 'str', frequencyId: 'int',
  frequencyName: 'str', numberOfPayments: 'int?', paymentsMade: 'int', nextPaymentDate: 'str?', failedAttempts: 'int', card: 'str?',
  dateCreated: 'str', dateUpdated: 'str', dateEnded: 'str?',
};

export const SUBSCRIPTION_LIST: WireShape = { ...envelope, data: [SUBSCRIPTION] };

export const RECURRING_PAYMENT_CANCELLED: WireShape = { ...envelope, data: 'any' };
