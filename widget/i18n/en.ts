import type { PaymentMessageKey } from './payment-messages.ts';

/**
 * English, the catalog every other locale must match key for key, for the first screens: what the card and transfer
 * views say loads with them (`payment-messages.ts`). `{name}` marks a value filled in at run time.
 */
export const en = {
  checkout: 'Checkout',
  close: 'Close checkout',
  loading: 'Preparing your checkout…',
  secured: 'Secured payment. Card details are encrypted before they leave this page.',
  securedShort: 'Secured payment.',
  continue: 'Continue',
  continueWithCard: 'Continue with card',
  getAccount: 'Get account details',
  changeMethod: 'Change payment method',
  tryAgain: 'Try again',
  done: 'Done',
  testMode: 'Test mode',

  summaryHeading: 'Order summary',
  orderReference: 'Order {reference}',
  billedTo: 'Billed to {customer}',
  items: 'Items',
  subtotal: 'Subtotal',
  subscriptionPlan: 'Subscription:',

  chooseMethod: 'Choose how to pay',
  methodCard: 'Card',
  methodCardHint: 'Visa, Mastercard, Verve or American Express',
  methodTransfer: 'Bank transfer',
  methodTransferHint: 'Send the money to a one-time account number',

  feeHeading: 'Amount to pay',
  fee: 'Fee',
  total: 'Total to pay',
  noFee: 'No fee',
  feeBorneByCustomer: 'You pay the fee.',
  feeLoading: 'Working out the fee…',
  feeFailed: 'The fee could not be worked out. Check your connection and try again.',

  cardHeading: 'Pay by card',
  quoteNeeded: 'You can pay once the total, fee included, is known.',
  fixFieldsOne: '1 field needs your attention.',
  fixFieldsOther: '{count} fields need your attention.',
  detailsHeading: 'Your details',
  detailsIntro: 'For your receipt and for {merchant} to find your order.',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'E-mail address',
  mobile: 'Phone number (optional)',
  errorFirstName: 'Enter your first name.',
  errorLastName: 'Enter your last name.',
  errorEmail: 'Enter your e-mail address, like ada@example.com.',
  errorMobile: 'Enter a phone number of 7 to 15 digits, like +234 801 234 5678, or leave it empty.',

  authHeading: 'Confirm with your bank',
  authBody: 'Your bank asks you to confirm this payment on its secure page. You will come back here afterwards.',
  authOpen: 'Go to your bank’s page',
  authChecking: 'Checking the payment with your bank…',
  authInterrupted: 'Your bank’s page was open when this page reloaded. Continue there to confirm the payment, or use another payment method.',
  authContinue: 'Continue with your bank',
  useAnotherMethod: 'Use another payment method',
  authCancelled: 'Your bank did not confirm the payment. Try again or choose another method.',

  transferHeading: 'Pay by bank transfer',

  successHeading: 'Payment successful',
  excessPayment: 'You sent {excess} more than was due. {merchant} has a record of it and will refund it.',
  successBody: 'You paid {amount} to {merchant}.',
  paymentReference: 'Order reference',
  paidOn: 'Paid on',
  failureHeading: 'Payment not completed',
  chooseAnother: 'Choose another payment method',
  decline05: 'Your bank declined the payment. Try another card or contact your bank.',
  decline12: 'Your bank refused this kind of transaction. Try another payment method.',
  decline14: 'The card number was not accepted. Check it, or use another card.',
  decline51: 'There is not enough money on this card. Try another card.',
  decline54: 'The card has expired. Use another card.',
  decline55: 'The PIN was not correct.',
  decline91: 'Your bank is not answering right now. Try again in a few minutes.',
  declineOther: 'The payment did not go through. Try again or choose another payment method.',
  reversed: 'This payment was reversed. Contact {merchant} if you have questions.',
  expiredHeading: 'The account number has expired',
  expiredBody: 'The time to send the transfer ran out. Get a new account number to pay by transfer, or choose another method.',
  expiredReceived: 'We received {received} before the account expired. It does not count towards this payment: {merchant} has a record of it and will refund it.',
  newAccount: 'Get a new account number',

  errorHeading: 'Checkout unavailable',
  errorNetwork: 'We could not reach the payment service. Check your internet connection, then try again.',
  errorAuth: 'This checkout is not set up correctly, so it cannot take payments. Please let {merchant} know.',
  errorInvalid: 'The order details were not accepted ({detail}). Please let {merchant} know.',
  errorInvalidGeneric: 'The order details were not accepted. Please let {merchant} know.',
  errorNotFound: 'We could not find this order. Go back to {merchant} and start again.',
  errorConflict: 'This order has already been paid or is being paid. Check your email for a receipt before trying again.',
  errorRate: 'Too many attempts in a short time. Wait a minute, then try again.',
  errorServer: 'Something went wrong on our side. Try again; if it keeps happening, quote {requestId}.',
  errorUnreadable: 'The payment service sent an answer we could not read. Try again in a moment.',
  theMerchant: 'the merchant',
} as const;

/** Every message, the first screens' and the payment views'. */
export type MessageKey = keyof typeof en | PaymentMessageKey;
export type Catalog = Record<keyof typeof en, string>;
