import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { toMajorUnits, toMinorUnits } from '../../shared/money.ts';
import { messagePage } from '../pages/authentication.ts';
import { linkFormPage, linkHeader, type LinkFormErrors, type LinkFormValues } from '../pages/link-page.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { StoredLink } from '../repositories/links.ts';

const pagesCss = readFileSync(fileURLToPath(new URL('../pages/pages.css', import.meta.url)), 'utf8');

/** The customer's answers come in the form's body, never in the address (history, logs, Referer). */
const linkForm = z.object({
  firstname: z.string().max(100).default(''),
  lastname: z.string().max(100).default(''),
  email: z.string().max(200).default(''),
  mobile: z.string().max(20).default(''),
  amount: z.string().max(20).default(''),
});

/** The only parameters of the link's address: those the 3-D Secure page adds on the way back to an order. */
const linkQuery = z.object({ reference: z.string().max(64).optional(), status: z.string().max(20).optional() });

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Pages for people: the payment-link page a customer opens, and the hosted pages' stylesheet. */
const routes: FastifyPluginAsyncZod<{ publicBaseUrl: string }> = async (app, { publicBaseUrl }) => {
  app.get('/assets/pages.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(pagesCss),
  );

  app.get('/demo', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/demo/', 301));
  app.get(
    '/demo/',
    { schema: { summary: 'Demo merchant page wired to the sandbox merchant (HTML)', tags: ['Pages'] } },
    async (_request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const apiKey = await app.merchants.sandboxPublishableKey();
      if (!apiKey) return reply.code(404).send(messagePage('No sandbox merchant', 'Create a merchant with test keys: npm run merchant -- create ...'));
      const demo = await app.widgetPages.render('demo/index.html', { 'api-key': apiKey, 'api-base': publicBaseUrl });
      if (!demo) return reply.code(503).send(messagePage('Demo unavailable', 'The widget has not been built. Run npm run build.'));
      return reply.send(demo);
    },
  );

  // The link form posts url-encoded fields (a plain HTML form, no script).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  /** The link and its merchant, or the page that says why the link cannot take a payment now. */
  const openLink = async (reference: string, reply: FastifyReply) => {
    const link = await app.links.findByReference(reference);
    const merchant = link && (await app.merchants.find(link.merchantId));
    if (!link || !merchant) {
      reply.code(404).send(messagePage('Payment link not found', 'This payment link does not exist. Check the address with the merchant who sent it.'));
      return undefined;
    }
    return { link, merchant };
  };
  const refusal = (link: StoredLink, merchant: Merchant): { status: number; page: string } | undefined => {
    if (!link.isActive || merchant.disabled) {
      return { status: 410, page: messagePage('Payment link inactive', `This payment link is no longer active. Contact ${merchant.name} at ${merchant.supportEmail}.`) };
    }
    if (link.payerLimit > 0 && link.uses >= link.payerLimit) {
      return { status: 410, page: messagePage('Payment link used up', `This payment link has already been used the number of times ${merchant.name} allowed.`) };
    }
    return undefined;
  };
  /** The checkout for this link. Its return address after 3-D Secure is the link's own, with nothing about the customer. */
  const checkoutPage = async (link: StoredLink, merchant: Merchant, reply: FastifyReply, order: { reference: string } | { values: LinkFormValues; amountMinor: number | null }) => {
    const publishableKey = await app.merchants.publishableKey(merchant.id, link.mode);
    const customer =
      'values' in order
        ? {
            amount: order.amountMinor === null ? undefined : toMajorUnits(order.amountMinor, link.currency),
            'customer-first-name': order.values.firstname,
            'customer-last-name': order.values.lastname,
            'customer-email': order.values.email,
            'customer-mobile': order.values.mobile,
          }
        : { reference: order.reference };
    const checkout = await app.widgetPages.render(
      'checkout.html',
      {
        'api-key': publishableKey ?? '',
        currency: link.currency,
        description: link.description,
        ...customer,
        'payment-link-id': link.id,
        'redirect-url': `${publicBaseUrl}/l/${link.reference}`,
        'success-url': link.website ?? '',
      },
      linkHeader(link, merchant.name),
    );
    if (!checkout) return reply.code(503).send(messagePage('Checkout unavailable', 'The checkout app has not been built. Run npm run build.'));
    return reply.pagePolicy({ formAction: ["'self'"] }).send(checkout);
  };

  app.get(
    '/l/:reference',
    {
      schema: {
        summary: 'Payment-link page (HTML): the form for the customer, or the order a customer returns to from 3-D Secure',
        tags: ['Pages'],
        params: z.object({ reference: z.string().max(64) }),
        querystring: linkQuery,
      },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const opened = await openLink(request.params.reference, reply);
      if (!opened) return reply;
      const { link, merchant } = opened;
      // A customer back from 3-D Secure resumes their order even if that payment just used the link up; any other
      // reference (typed into the address) gets the link's state like every visit.
      const returning = request.query.reference && (await isOrderOfLink(request.query.reference, link, merchant));
      if (returning) return checkoutPage(link, merchant, reply, { reference: request.query.reference! });
      const refused = refusal(link, merchant);
      if (refused) return reply.code(refused.status).send(refused.page);
      return reply.send(linkFormPage(link, merchant.name, { firstname: '', lastname: '', email: '', mobile: '', amount: '' }, {}));
    },
  );

  app.post(
    '/l/:reference',
    {
      schema: {
        summary: "Payment-link page (HTML): the customer's details posted by its form, answered with the checkout",
        tags: ['Pages'],
        params: z.object({ reference: z.string().max(64) }),
        body: linkForm,
      },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const opened = await openLink(request.params.reference, reply);
      if (!opened) return reply;
      const { link, merchant } = opened;
      const refused = refusal(link, merchant);
      if (refused) return reply.code(refused.status).send(refused.page);

      const body = request.body;
      const values: LinkFormValues = { firstname: body.firstname.trim(), lastname: body.lastname.trim(), email: body.email.trim(), mobile: body.mobile.trim(), amount: body.amount.trim() };
      const errors: LinkFormErrors = {};
      let amountMinor = link.amountMinor;
      if (!values.firstname) errors.firstname = 'Enter your first name.';
      if (!values.lastname) errors.lastname = 'Enter your last name.';
      if (!EMAIL.test(values.email)) errors.email = 'Enter an e-mail address like name@example.com.';
      if (values.mobile && !/^\+?[0-9 ()-]{7,20}$/.test(values.mobile)) errors.mobile = 'Enter a phone number, digits only, or leave it empty.';
      if (link.amountMinor === null) {
        const amount = Number(values.amount.replace(/,/g, ''));
        amountMinor = /^\d[\d,]*(\.\d+)?$/.test(values.amount) ? (toMinorUnits(amount, link.currency) ?? null) : null;
        if (amountMinor === null || amountMinor <= 0) errors.amount = `Enter an amount in ${link.currency}, like 5000 or 5000.50.`;
      }
      if (Object.keys(errors).length > 0) return reply.code(400).send(linkFormPage(link, merchant.name, values, errors));
      return checkoutPage(link, merchant, reply, { values, amountMinor });
    },
  );

  /** Whether `reference` is an order a customer started from this link. */
  async function isOrderOfLink(reference: string, link: StoredLink, merchant: Merchant): Promise<boolean> {
    try {
      const order = await app.orders.findOwn({ merchant, mode: link.mode, kind: 'publishable' }, reference);
      return order.paymentLinkId === link.id;
    } catch {
      return false;
    }
  }
};

export default routes;
