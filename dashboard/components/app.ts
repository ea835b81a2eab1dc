import { provide } from '@lit/context';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { ApiClient } from '../api/client.ts';
import { connectedReports, type ReportsSource } from '../api/reports.ts';
import { connectedSession, SessionState, type Me, type Mode, type SessionApi } from '../api/session.ts';
import { AnnounceEvent } from '../base.ts';
import { apiContext, localizerContext, meContext, reportsContext, sessionContext } from '../context.ts';
import { browserLocale, LANGUAGES, languageOf, localeFor, Localizer, type Language, type MessageKey } from '../i18n/localizer.ts';
import { hrefOf, parseRoute, PUBLIC_ROUTES, SCREENS, type Route, type RouteName } from '../router.ts';
import { styles } from './app.styles.ts';
import { SignedInEvent, type ModeChangeEvent } from './events.ts';
import './mode-switch.ts';
import type { Permission } from '../../shared/contract/permissions.ts';
import { allows } from '../access.ts';

export type Theme = 'system' | 'light' | 'dark';
const THEMES: readonly Theme[] = ['system', 'light', 'dark'];
const STORED_LANGUAGE = 'dashboard.language';
const STORED_THEME = 'dashboard.theme';

/** The screens in the navigation: only those that exist, and each only for a member whose permissions allow it. */
const NAV: { route: RouteName; href: string; label: MessageKey; needs?: Permission; also?: RouteName }[] = [
  { route: 'home', href: hrefOf.home, label: 'nav.home' },
  { route: 'payments', href: hrefOf.payments, label: 'nav.payments', also: 'payment' },
  // The operations screens (issue 32 items 5 to 8).
  { route: 'links', href: hrefOf.links, label: 'nav.links', needs: 'orders.read', also: 'link' },
  { route: 'subscriptions', href: hrefOf.subscriptions, label: 'nav.subscriptions', needs: 'orders.read' },
  { route: 'customers', href: hrefOf.customers, label: 'nav.customers', needs: 'orders.read', also: 'customer' },
  { route: 'developers', href: hrefOf.developers, label: 'nav.developers', needs: 'orders.read' },
  { route: 'settings', href: hrefOf.settings, label: 'nav.settings', needs: 'orders.read' },
  { route: 'team', href: hrefOf.team, label: 'nav.team', needs: 'team.manage' },
  { route: 'audit', href: hrefOf.audit, label: 'nav.audit', needs: 'audit.read' },
];

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private browsing without storage: the choice lasts for this visit.
  }
}

/**
 * The dashboard's shell: the session, the router, the navigation, the test/live switch and banner, the language
 * and theme switches, and the live region every screen's async results are read out in. It provides the API
 * client, the session, the signed-in member, the reports source and the localizer to the screens through context.
 */
@customElement('dash-app')
export class DashApp extends LitElement {
  static override styles = styles;

  /** The CSRF token and mode every call carries. */
  readonly #state = new SessionState();

  @provide({ context: apiContext })
  @property({ attribute: false })
  api: ApiClient = new ApiClient({
    csrfToken: () => this.#state.csrfToken ?? this.me?.csrfToken,
    mode: () => this.#state.mode,
    onUnauthorized: () => this.#sessionEnded(),
  });

  /** The team-accounts backend (api/session.ts); a stand-in may be set before the element connects (tests). */
  @provide({ context: sessionContext })
  @property({ attribute: false })
  session: SessionApi = connectedSession(this.api, this.#state);

  /** Home's figures (api/reports.ts). */
  @provide({ context: reportsContext })
  @property({ attribute: false })
  reports: ReportsSource = connectedReports(this.api);

  @provide({ context: meContext })
  @state()
  me: Me | undefined;

  @provide({ context: localizerContext })
  @state()
  localizer: Localizer = new Localizer('en-NG');

  @state() private route: Route = parseRoute(location.hash);
  @state() private theme: Theme = (THEMES as readonly string[]).includes(stored(STORED_THEME) ?? '') ? (stored(STORED_THEME) as Theme) : 'system';
  /** Screens whose module has loaded. */
  @state() private loaded = new Set<RouteName>();
  @state() private loadFailed = false;
  @state() private checked = false;
  @state() private announcement = '';
  @state() private switchingMode = false;
  /** Set when a call found the session gone: the sign-in screen says so. */
  @state() private expired = false;

  @query('main') private main!: HTMLElement;

  readonly #onHashChange = () => this.#go(parseRoute(location.hash));
  #focusMainAfterRender = false;

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.#onHashChange);
    this.addEventListener(AnnounceEvent.eventName, (event) => this.#announce(event.message));
    this.addEventListener(SignedInEvent.eventName, (event) => this.#signedIn(event.me, event.next));
    // A step-up opened a new session id with a new CSRF token (components/step-up.ts).
    void this.#start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.#onHashChange);
  }

  async #start(): Promise<void> {
    const language = (stored(STORED_LANGUAGE) as Language | null) ?? languageOf(browserLocale());
    await this.#setLanguage(LANGUAGES.includes(language) ? language : 'en');
    this.#applyTheme();
    this.me = (await this.session.me().catch(() => null)) ?? undefined;
    if (this.me) this.#state.adopt(this.me);
    this.checked = true;
    this.#go(parseRoute(location.hash));
  }

  async #setLanguage(language: Language): Promise<void> {
    this.localizer = await Localizer.load(localeFor(language));
    document.documentElement.lang = language;
    document.title = this.localizer.t('app.title');
  }

  #applyTheme(): void {
    const scheme = this.theme === 'system' ? 'light dark' : this.theme;
    document.documentElement.style.colorScheme = scheme;
  }

  /** Shows a route: a signed-out visitor goes to sign-in first (and back here after). */
  #go(route: Route): void {
    if (!this.checked) return;
    if (!this.me && !PUBLIC_ROUTES.has(route.name)) {
      location.hash = hrefOf.signIn(location.hash && location.hash !== '#' ? location.hash : undefined);
      return;
    }
    if (this.me && route.name === 'sign-in') {
      location.hash = route.next ?? hrefOf.home;
      return;
    }
    this.route = route;
    this.#focusMainAfterRender = true;
    if (route.name !== 'not-found' && !this.loaded.has(route.name)) {
      const name = route.name;
      SCREENS[name]()
        .then(() => {
          this.loaded = new Set(this.loaded).add(name);
          this.loadFailed = false;
        })
        .catch(() => {
          this.loadFailed = true;
        });
    }
  }

  #signedIn(me: Me, next: string | undefined): void {
    this.#state.adopt(me);
    this.me = me;
    this.expired = false;
    location.hash = next ?? hrefOf.home;
  }

  #sessionEnded(): void {
    if (!this.me) return;
    this.me = undefined;
    this.expired = true;
    this.#go(this.route);
  }

  #announce(message: string): void {
    // The same words twice in a row are read again only if the region changes in between.
    this.announcement = '';
    requestAnimationFrame(() => (this.announcement = message));
  }

  async #switchMode(mode: Mode): Promise<void> {
    this.switchingMode = true;
    try {
      this.me = await this.session.switchMode(mode);
      this.#state.adopt(this.me);
      this.#announce(this.localizer.t(mode === 'test' ? 'mode.switched.test' : 'mode.switched.live'));
    } catch {
      this.#announce(this.localizer.t('mode.failed'));
    } finally {
      this.switchingMode = false;
    }
  }

  async #signOut(): Promise<void> {
    await this.session.signOut().catch(() => undefined);
    this.#state.clear();
    this.me = undefined;
    location.hash = hrefOf.signIn();
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (changed.has('theme')) this.#applyTheme();
    if (this.#focusMainAfterRender && this.main && (this.route.name === 'not-found' || this.loaded.has(this.route.name))) {
      this.#focusMainAfterRender = false;
      // A new screen: keyboard and screen-reader users start at its top, as after a page load.
      this.main.focus({ preventScroll: false });
    }
  }

  #screen(): TemplateResult | typeof nothing {
    const route = this.route;
    if (this.loadFailed) return html`<p class="error-message" role="alert">${this.localizer.t('app.loadFailed')}</p>`;
    if (route.name === 'not-found') return html`<h1>${this.localizer.t('app.notFound')}</h1><p><a href=${hrefOf.home}>${this.localizer.t('nav.home')}</a></p>`;
    if (!this.loaded.has(route.name)) return html`<p class="muted" role="status">${this.localizer.t('app.loading')}</p>`;
    switch (route.name) {
      case 'home':
        return html`<dash-home></dash-home>`;
      case 'payments':
        return html`<dash-payments></dash-payments>`;
      case 'payment':
        return html`<dash-payment .reference=${route.reference}></dash-payment>`;
      case 'sign-in':
        return html`<dash-sign-in .next=${route.next} .expired=${this.expired}></dash-sign-in>`;
      case 'accept':
        return html`<dash-accept .token=${route.token}></dash-accept>`;
      // The operations screens (issue 32 items 5 to 8).
      case 'links':
        return html`<dash-links></dash-links>`;
      case 'link':
        return html`<dash-link .reference=${route.reference}></dash-link>`;
      case 'subscriptions':
        return html`<dash-subscriptions></dash-subscriptions>`;
      case 'customers':
        return html`<dash-customers></dash-customers>`;
      case 'customer':
        return html`<dash-customer .customerId=${route.customerId}></dash-customer>`;
      case 'developers':
        return html`<dash-developers></dash-developers>`;
      case 'settings':
        return html`<dash-settings></dash-settings>`;
      case 'team':
        return html`<dash-team></dash-team>`;
      case 'audit':
        return html`<dash-audit></dash-audit>`;
    }
  }

  #preferences(): TemplateResult {
    const t = this.localizer.t.bind(this.localizer);
    return html`<div class="preferences">
      <label class="preference">
        <span>${t('settings.language')}</span>
        <select @change=${(event: Event) => this.#chooseLanguage((event.target as HTMLSelectElement).value as Language)}>
          <option value="en" lang="en" ?selected=${this.localizer.language === 'en'}>English</option>
          <option value="fr" lang="fr" ?selected=${this.localizer.language === 'fr'}>Français</option>
        </select>
      </label>
      <label class="preference">
        <span>${t('settings.theme')}</span>
        <select @change=${(event: Event) => this.#chooseTheme((event.target as HTMLSelectElement).value as Theme)}>
          ${THEMES.map((theme) => html`<option value=${theme} ?selected=${this.theme === theme}>${t(`theme.${theme}`)}</option>`)}
        </select>
      </label>
    </div>`;
  }

  async #chooseLanguage(language: Language): Promise<void> {
    store(STORED_LANGUAGE, language);
    await this.#setLanguage(language);
  }

  #chooseTheme(theme: Theme): void {
    store(STORED_THEME, theme);
    this.theme = theme;
  }

  protected override render(): TemplateResult {
    const t = this.localizer.t.bind(this.localizer);
    const me = this.me;
    const liveRegion = html`<div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>`;
    if (!me) {
      return html`<div class="signed-out">
        <header class="bar"><span class="brand">${t('app.title')}</span>${this.#preferences()}</header>
        <main tabindex="-1">${this.checked ? this.#screen() : nothing}${liveRegion}</main>
      </div>`;
    }
    const test = me.mode === 'test';
    return html`
      <header>
      <button class="skip" @click=${() => this.main.focus()}>${t('app.skip')}</button>
      ${test ? html`<p class="test-banner" part="test-banner"><strong>${t('mode.test')}</strong> ${t('mode.banner')}</p>` : nothing}
      <div class="bar ${test ? 'test' : ''}">
        <span class="brand">${me.merchant.name}</span>
        <dash-mode-switch .mode=${me.mode} .busy=${this.switchingMode} @dash-mode-change=${(event: ModeChangeEvent) => this.#switchMode(event.mode)}></dash-mode-switch>
        ${this.#preferences()}
        <span class="who muted">${t('app.signedInAs', { name: me.user.email })}</span>
        <button class="sign-out" @click=${this.#signOut}>${t('app.signOut')}</button>
      </div>
      </header>
      <div class="layout">
        <nav aria-label=${t('nav.label')}>
          <ul>
            ${NAV.filter((item) => !item.needs || allows(me, item.needs)).map(
              (item) => html`<li>
                <a href=${item.href} aria-current=${this.route.name === item.route || this.route.name === item.also ? 'page' : 'false'}>${t(item.label)}</a>
              </li>`,
            )}
          </ul>
        </nav>
        <main tabindex="-1">${this.#screen()}${liveRegion}</main>
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-app': DashApp;
  }
}
