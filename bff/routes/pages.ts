import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { toMajorUnits, toMinorUnits } from '../../shared/money.ts';
import { messagePage } from '../pages/authentication.ts';
import { linkFormPage, linkHeader, type LinkFormErrors, type LinkFormValues } from '../pages/link-page.ts';

const pagesCss = readFileSync(fileURLToPath(new URL('../pages/pages.css', import.meta.url)), 'utf8');

const linkQuery = z.object({
  firstname: z.string().max(100).default(''),
  lastname: z.string().max(100).default(''),
  email: z.string().max(200).default(''),
  mobile: z.string().max(20).default(''),
  amount: z.string().max(20).default(''),
  reference: z.string().max(64).optional(),
});

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

  app.get(
    '/l/:reference',
    {
      schema: {
        summary: 'Payment-link page (HTML): customer details, then the checkout',
        tags: ['Pages'],
        params: z.object({ reference: z.string().max(64) }),
        querystring: linkQuery,
      },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const link = await app.links.findByReference(request.params.reference);
      const merchant = link && (await app.merchants.find(link.merchantId));
      if (!link || !merchant) {
        return reply.code(404).send(messagePage('Payment link not found', 'This payment link does not exist. Check the address with the merchant who sent it.'));
      }
      const query = request.query;
      // A customer coming back from 3-D Secure resumes the order they started, whatever the link's state now.
      if (!query.reference) {
        if (!link.isActive || merchant.disabled) {
          return reply.code(410).send(messagePage('Payment link inactive', `This payment link is no longer active. Contact ${merchant.name} at ${merchant.supportEmail}.`));
        }
        if (link.payerLimit > 0 && link.uses >= link.payerLimit) {
          return reply.code(410).send(messagePage('Payment link used up', `This payment link has already been used the number of times ${merchant.name} allowed.`));
        }
      }

      const values: LinkFormValues = { firstname: query.firstname.trim(), lastname: query.lastname.trim(), email: query.email.trim(), mobile: query.mobile.trim(), amount: query.amount.trim() };
      const submitted = Object.values(values).some((value) => value !== '');
      const errors: LinkFormErrors = {};
      let amountMinor = link.amountMinor;
      if (submitted) {
        if (!values.firstname) errors.firstname = 'Enter your first name.';
        if (!values.lastname) errors.lastname = 'Enter your last name.';
        if (!EMAIL.test(values.email)) errors.email = 'Enter an e-mail address like name@example.com.';
        if (values.mobile && !/^\+?[0-9 ()-]{7,20}$/.test(values.mobile)) errors.mobile = 'Enter a phone number, digits only, or leave it empty.';
        if (link.amountMinor === null) {
          const amount = Number(values.amount.replace(/,/g, ''));
          amountMinor = /^\d[\d,]*(\.\d+)?$/.test(values.amount) ? (toMinorUnits(amount, link.currency) ?? null) : null;
          if (amountMinor === null || amountMinor <= 0) errors.amount = `Enter an amount in ${link.currency}, like 5000 or 5000.50.`;
        }
      }
      if (!query.reference && (!submitted || Object.keys(errors).length > 0)) {
        return reply.code(submitted ? 400 : 200).send(linkFormPage(link, merchant.name, values, errors));
      }

      const publishableKey = await app.merchants.publishableKey(merchant.id, link.mode);
      const here = new URL(`${publicBaseUrl}/l/${link.reference}`);
      for (const [key, value] of Object.entries(values)) if (value) here.searchParams.set(key, value);
      const checkout = await app.widgetPages.render(
        'checkout.html',
        {
          'api-key': publishableKey ?? '',
          amount: amountMinor === null ? undefined : toMajorUnits(amountMinor, link.currency),
          currency: link.currency,
          description: link.description,
          'customer-first-name': values.firstname,
          'customer-last-name': values.lastname,
          'customer-email': values.email,
          'customer-mobile': values.mobile,
          'payment-link-id': link.id,
          'redirect-url': here.toString(),
          'success-url': link.website ?? '',
          ...(query.reference ? { reference: query.reference } : {}),
        },
        linkHeader(link, merchant.name),
      );
      if (!checkout) return reply.code(503).send(messagePage('Checkout unavailable', 'The checkout app has not been built. Run npm run build.'));
      return reply.pagePolicy({ formAction: ["'self'"] }).send(checkout);
    },
  );
};

export default routes;
