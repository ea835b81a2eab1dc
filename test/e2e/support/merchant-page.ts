import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { freePort, type ServerKeys } from './server.ts';

/**
 * A merchant's own page on an origin the test chooses: embed.js from the checkout's origin with its integrity
 * hash, as the README shows, an inline `<checkout-widget>` with the given attributes and a log of the events it
 * dispatches (an attribute given as '' is left off). The page's script is a file, like any merchant's, and listens before embed.js loads: the widget
 * starts as soon as it is parsed, with its key in the markup.
 */
export async function serveMerchantPage(
  server: ServerKeys,
  host: string,
  attributes: Record<string, string> = {},
): Promise<{ origin: string; reference: string; close: () => Promise<void> }> {
  const port = await freePort(host);
  // The tag the README gives merchants: Subresource Integrity pins the script, which is fetched with CORS.
  const embed = Buffer.from(await (await fetch(`${server.baseUrl}/embed.js`)).arrayBuffer());
  const integrity = `sha384-${createHash('sha384').update(embed).digest('base64')}`;
  const settings: Record<string, string> = {
    'api-key': server.publishableKey,
    reference: `SHOP-${port}-${Date.now()}`,
    amount: '3000',
    currency: 'NGN',
    email: 'ada@example.test',
    'first-name': 'Ada',
    'last-name': 'Obi',
    ...attributes,
  };
  // An attribute given as '' is left off the tag (a page that sets only some of them).
  const markup = Object.entries(settings)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join(' ');
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another shop</title>
<script src="/shop.js"></script><script src="${server.baseUrl}/embed.js" integrity="${integrity}" crossorigin="anonymous"></script></head>
<body><h1>Another shop</h1>
<checkout-widget id="shop-checkout" ${markup}></checkout-widget>
<ol id="event-log"></ol></body></html>`;
  const script = `for (const type of ['checkout:ready', 'checkout:success', 'checkout:error']) {
  document.addEventListener(type, (event) => {
    const entry = document.createElement('li');
    entry.dataset.event = type;
    entry.dataset.source = event.target.id;
    if (event.code) entry.dataset.code = event.code;
    entry.textContent = type + ' ' + (event.code || '') + ' ' + (event.message || '');
    document.getElementById('event-log').append(entry);
  });
}`;
  const http: Server = createServer((request, response) => {
    const isScript = request.url === '/shop.js';
    response.writeHead(200, { 'content-type': isScript ? 'text/javascript' : 'text/html; charset=utf-8' }).end(isScript ? script : page);
  });
  await new Promise<void>((resolve) => http.listen(port, host, resolve));
  return { origin: `http://${host}:${port}`, reference: settings.reference!, close: () => new Promise((resolve) => http.close(() => resolve())) };
}
