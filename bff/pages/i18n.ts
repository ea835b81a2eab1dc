import { formatMoney } from '../../shared/money.ts';

/**
 * The hosted pages' words in English and French, and the customer's locale read from Accept-Language: the first
 * language the browser prefers that the pages speak, with its region when Intl knows it (`fr-CI`, `en-NG`), so money
 * is written as the checkout writes it on the same page. Anything else is English.
 */
export type Language = 'en' | 'fr';

/** A page's title and message. */
type Message = readonly [title: string, message: string];

interface Catalog {
  amountLabel(currency: string): string;
  firstName: string;
  lastName: string;
  email: string;
  mobile: string;
  continue: string;
  correctFields: string;
  errors: { firstname: string; lastname: string; email: string; mobile: string; amount(currency: string): string };
  linkNotFound: Message;
  linkInactive(merchant: string, email: string): Message;
  linkUsedUp(merchant: string): Message;
  orderNotFound: Message;
  checkoutUnavailable: Message;
  frameExpired: Message;
  frameRefused: Message;
  checkoutRefused: Message;
  paymentNotFound: Message;
  authenticationExpired: Message;
  authenticationFinished: Message;
  returnToMerchant: string;
  subscription: {
    plan: string;
    manage: string;
    cancelLink: string;
    cancelTitle: string;
    cancelQuestion(merchant: string): string;
    cancelButton: string;
    cancelled(merchant: string): Message;
    alreadyEnded: Message;
    notFound: Message;
  };
  result: { successful(order: string): Message; pending(order: string): Message; failed(order: string): Message };
  authentication: {
    title: string;
    bank: string;
    paying: string;
    to: string;
    with: string;
    sandboxCode: string;
    code: string;
    approve: string;
    fail: string;
    wrongCode(left: number): string;
  };
}

const en: Catalog = {
  amountLabel: (currency) => `Amount (${currency})`,
  firstName: 'First name',
  lastName: 'Last name',
  email: 'E-mail',
  mobile: 'Mobile number (optional)',
  continue: 'Continue to payment',
  correctFields: 'Please correct the fields marked below.',
  errors: {
    firstname: 'Enter your first name.',
    lastname: 'Enter your last name.',
    email: 'Enter an e-mail address like name@example.com.',
    mobile: 'Enter a phone number, digits only, or leave it empty.',
    amount: (currency) => `Enter an amount in ${currency}, like 5000 or 5000.50.`,
  },
  linkNotFound: ['Payment link not found', 'This payment link does not exist. Check the address with the merchant who sent it.'],
  linkInactive: (merchant, email) => ['Payment link inactive', `This payment link is no longer active. Contact ${merchant} at ${email}.`],
  linkUsedUp: (merchant) => ['Payment link used up', `This payment link has already been used the number of times ${merchant} allowed.`],
  orderNotFound: ['Order not found', 'This payment link has no such order. Open the link the merchant sent to pay.'],
  checkoutUnavailable: ['Checkout unavailable', 'The checkout app has not been built. Run npm run build.'],
  frameExpired: ['Checkout unavailable', 'This checkout session is not valid or has expired. Reload the page to start again.'],
  frameRefused: ['Checkout unavailable', 'This site is no longer allowed to show this checkout.'],
  checkoutRefused: ['Checkout unavailable', 'This checkout is not available on this site.'],
  paymentNotFound: ['Payment not found', 'No payment awaits authentication here.'],
  authenticationExpired: ['Authentication expired', 'This authentication has expired: it was not completed in time. Return to the merchant to pay again.'],
  authenticationFinished: ['Authentication finished', 'This payment is no longer waiting for authentication.'],
  returnToMerchant: 'Return to the merchant',
  subscription: {
    plan: 'Subscription',
    manage: 'You can cancel this subscription at any time.',
    cancelLink: 'Cancel this subscription',
    cancelTitle: 'Cancel your subscription',
    cancelQuestion: (merchant) => `Stop paying ${merchant} for this subscription? No further payment will be taken.`,
    cancelButton: 'Cancel subscription',
    cancelled: (merchant) => ['Subscription cancelled', `Your subscription with ${merchant} is cancelled. No further payment will be taken.`],
    alreadyEnded: ['Subscription ended', 'This subscription has already ended. No further payment will be taken.'],
    notFound: ['Subscription not found', 'This cancel link is not valid. Use the link on your receipt, or contact the merchant.'],
  },
  result: {
    successful: (order) => ['Payment successful', `Your payment for order ${order} was successful. You can close this page.`],
    pending: (order) => ['Payment pending', `The payment for order ${order} is waiting for confirmation. The merchant will let you know when it arrives.`],
    failed: (order) => ['Payment not completed', `The payment for order ${order} did not go through. Return to the merchant to try again.`],
  },
  authentication: {
    title: 'Authenticate your payment',
    bank: 'Sandbox Bank · 3-D Secure',
    paying: 'Paying',
    to: 'to',
    with: 'with',
    sandboxCode: 'This is the sandbox. Your one-time code is',
    code: 'One-time code',
    approve: 'Authenticate',
    fail: 'Fail authentication',
    wrongCode: (left) => `That code is not correct. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
  },
};

const fr: Catalog = {
  amountLabel: (currency) => `Montant (${currency})`,
  firstName: 'Prénom',
  lastName: 'Nom',
  email: 'E-mail',
  mobile: 'Numéro de mobile (facultatif)',
  continue: 'Continuer vers le paiement',
  correctFields: 'Corrigez les champs signalés ci-dessous.',
  errors: {
    firstname: 'Saisissez votre prénom.',
    lastname: 'Saisissez votre nom.',
    email: 'Saisissez une adresse e-mail comme nom@exemple.com.',
    mobile: 'Saisissez un numéro de téléphone, en chiffres, ou laissez le champ vide.',
    amount: (currency) => `Saisissez un montant en ${currency}, comme 5000 ou 5000,50.`,
  },
  linkNotFound: ['Lien de paiement introuvable', "Ce lien de paiement n'existe pas. Vérifiez l'adresse auprès du marchand qui vous l'a envoyée."],
  linkInactive: (merchant, email) => ['Lien de paiement inactif', `Ce lien de paiement n'est plus actif. Contactez ${merchant} à ${email}.`],
  linkUsedUp: (merchant) => ['Lien de paiement épuisé', `Ce lien de paiement a déjà été utilisé le nombre de fois autorisé par ${merchant}.`],
  orderNotFound: ['Commande introuvable', "Ce lien de paiement n'a pas cette commande. Ouvrez le lien envoyé par le marchand pour payer."],
  checkoutUnavailable: ['Paiement indisponible', "L'application de paiement n'a pas été construite. Lancez npm run build."],
  frameExpired: ['Paiement indisponible', "Cette session de paiement n'est pas valide ou a expiré. Rechargez la page pour recommencer."],
  frameRefused: ['Paiement indisponible', "Ce site n'est plus autorisé à afficher ce paiement."],
  checkoutRefused: ['Paiement indisponible', "Ce paiement n'est pas disponible sur ce site."],
  paymentNotFound: ['Paiement introuvable', "Aucun paiement n'attend d'authentification ici."],
  authenticationExpired: ['Authentification expirée', "Cette authentification a expiré : elle n'a pas été faite à temps. Retournez chez le marchand pour payer à nouveau."],
  authenticationFinished: ['Authentification terminée', "Ce paiement n'attend plus d'authentification."],
  returnToMerchant: 'Retourner chez le marchand',
  subscription: {
    plan: 'Abonnement',
    manage: 'Vous pouvez annuler cet abonnement à tout moment.',
    cancelLink: 'Annuler cet abonnement',
    cancelTitle: 'Annuler votre abonnement',
    cancelQuestion: (merchant) => `Arrêter de payer ${merchant} pour cet abonnement ? Aucun autre paiement ne sera prélevé.`,
    cancelButton: "Annuler l'abonnement",
    cancelled: (merchant) => ['Abonnement annulé', `Votre abonnement chez ${merchant} est annulé. Aucun autre paiement ne sera prélevé.`],
    alreadyEnded: ['Abonnement terminé', 'Cet abonnement est déjà terminé. Aucun autre paiement ne sera prélevé.'],
    notFound: ['Abonnement introuvable', "Ce lien d'annulation n'est pas valide. Utilisez le lien de votre reçu, ou contactez le marchand."],
  },
  result: {
    successful: (order) => ['Paiement réussi', `Votre paiement pour la commande ${order} a réussi. Vous pouvez fermer cette page.`],
    pending: (order) => ['Paiement en attente', `Le paiement pour la commande ${order} attend sa confirmation. Le marchand vous préviendra à son arrivée.`],
    failed: (order) => ['Paiement non abouti', `Le paiement pour la commande ${order} n'a pas abouti. Retournez chez le marchand pour réessayer.`],
  },
  authentication: {
    title: 'Authentifiez votre paiement',
    bank: 'Sandbox Bank · 3-D Secure',
    paying: 'Paiement de',
    to: 'à',
    with: 'avec',
    sandboxCode: 'Ceci est le bac à sable. Votre code à usage unique est',
    code: 'Code à usage unique',
    approve: 'Authentifier',
    fail: "Faire échouer l'authentification",
    wrongCode: (left) => `Ce code est incorrect. ${left} ${left === 1 ? 'essai restant' : 'essais restants'}.`,
  },
};

export interface PageLocale {
  language: Language;
  /** The BCP 47 tag for `lang` and number formats: the browser's own when it is of `language`. */
  tag: string;
  t: Catalog;
  money(minor: number, currency: string): string;
}

const CATALOGS: Record<Language, Catalog> = { en, fr };

export function pageLocale(language: Language, tag: string = language): PageLocale {
  return { language, tag, t: CATALOGS[language], money: (minor, currency) => formatMoney(minor, currency, tag) };
}

export const ENGLISH = pageLocale('en');

/** The locale for an Accept-Language header (`fr-CA,fr;q=0.9,en;q=0.8`): the highest-weighted language spoken here. */
export function localeFrom(acceptLanguage: string | undefined): PageLocale {
  const ranges = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [range = '', ...parameters] = part.trim().split(';');
      const q = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
      return { range: range.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.range && entry.weight > 0 && Number.isFinite(entry.weight))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { range } of ranges) {
    const language = range.slice(0, 2).toLowerCase();
    if ((language === 'en' || language === 'fr') && (range.length === 2 || range[2] === '-')) {
      const known = Intl.NumberFormat.supportedLocalesOf([range]);
      return pageLocale(language, known[0] ?? language);
    }
  }
  return ENGLISH;
}
