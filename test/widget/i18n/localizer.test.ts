import { expect } from 'chai';
import { en } from '../../../widget/i18n/en.ts';
import { Localizer, languageOf } from '../../../widget/i18n/localizer.ts';
import { paymentEn, paymentFr } from '../../../widget/i18n/payment-messages.ts';

describe('localizer', () => {
  it('picks French for any French locale and English otherwise', () => {
    expect(languageOf('fr-CI')).to.equal('fr');
    expect(languageOf('FR')).to.equal('fr');
    expect(languageOf('en-NG')).to.equal('en');
    expect(languageOf('yo-NG')).to.equal('en');
  });

  it('has a French message for every English one, with the same placeholders, on the first screens and in the payment views', async () => {
    const { fr } = await import('../../../widget/i18n/fr.ts');
    const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
    for (const [english, french] of [[en, fr], [paymentEn, paymentFr]] as [Record<string, string>, Record<string, string>][]) {
      expect(Object.keys(french).sort()).to.deep.equal(Object.keys(english).sort());
      for (const [key, message] of Object.entries(english)) expect(placeholders(french[key]!), key).to.deep.equal(placeholders(message));
    }
  });

  it('formats money, plurals and countdowns with Intl for the locale', async () => {
    const english = await Localizer.load('en-US');
    const french = await Localizer.load('fr-FR');
    expect(english.money(5800.5, 'USD')).to.equal('$5,800.50');
    expect(french.money(5800.5, 'USD')).to.match(/^5\s800,50\s\$US$/);
    expect(english.money(1500, 'JPY')).to.equal('¥1,500');
    expect(english.plural(1, 'minutesLeftOne', 'minutesLeftOther')).to.equal('1 minute left to make the transfer.');
    expect(french.plural(5, 'minutesLeftOne', 'minutesLeftOther')).to.equal('Il reste 5 minutes pour faire le virement.');
    expect(english.countdown(29 * 60_000 + 41_000)).to.equal('29:41');
    expect(english.countdown(3_725_000)).to.equal('1:02:05');
  });
});
