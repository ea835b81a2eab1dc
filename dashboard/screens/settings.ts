import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { getSettings, updateSettingsBodySchema, updateSettings, type MerchantSettings } from '../../shared/contract/settings.ts';
import { OperationsScreen } from './operations-base.ts';
import { settingsStyles } from './settings.styles.ts';

type Draft = { name: string; supportEmail: string; logoUrl: string; brandColor: string };
const DEFAULT_BRAND = '#0f766e';

/**
 * Settings: what the checkout shows customers (business name, support e-mail, logo, brand colour), with a preview of
 * the checkout's header and pay button as they will look. Saving needs `settings.write` and a fresh second factor.
 */
@customElement('dash-settings')
export class DashSettings extends OperationsScreen {
  static override styles = settingsStyles;

  @state() private draft: Draft | undefined;
  @state() private errors: Partial<Record<keyof Draft, string>> = {};
  @state() private saving = false;

  readonly #settings = new Task(this, {
    task: async ([], { signal }) => {
      const settings = await this.api.call(getSettings, { signal });
      this.draft = this.#draftOf(settings);
      return settings;
    },
    args: () => [this.me?.mode] as const,
  });

  #draftOf(settings: MerchantSettings): Draft {
    return { name: settings.name, supportEmail: settings.supportEmail, logoUrl: settings.logoUrl ?? '', brandColor: settings.brandColor ?? '' };
  }

  async #save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const draft = this.draft!;
    const body = { name: draft.name, supportEmail: draft.supportEmail, logoUrl: draft.logoUrl.trim() || null, brandColor: draft.brandColor.trim() || null };
    const parsed = updateSettingsBodySchema.safeParse(body);
    const errors: Partial<Record<keyof Draft, string>> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] as keyof Draft] ??= this.t('links.fieldInvalid', { message: issue.message });
    this.errors = errors;
    const first = Object.keys(errors)[0];
    if (first) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#${first}`)?.focus());
      return;
    }
    this.saving = true;
    const saved = await this.act(() => this.api.call(updateSettings, { body }));
    this.saving = false;
    if (!saved) return;
    this.draft = this.#draftOf(saved);
    this.announce(this.t('settings.saved'));
  }

  #input(event: Event): void {
    const target = event.target as HTMLInputElement;
    if (this.draft && target.name in this.draft) this.draft = { ...this.draft, [target.name]: target.value };
  }

  #field(name: keyof Draft, label: string, type: string, hint?: string): TemplateResult {
    const error = this.errors[name];
    const describedBy = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
    return html`<div class="field">
      <label for=${name}>${label}</label>
      ${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>` : nothing}
      <input id=${name} name=${name} type=${type} .value=${this.draft![name]} ?readonly=${!this.can('settings.write')}
        aria-invalid=${error ? 'true' : 'false'} aria-describedby=${describedBy || nothing} />
      ${error ? html`<p class="field-error" id="${name}-error">${error}</p>` : nothing}
    </div>`;
  }

  protected override render(): TemplateResult {
    return html`<h1>${this.t('settings.title')}</h1>
      ${this.chrome()}
      ${this.draft ? this.#form(this.draft) : this.#settings.render({ initial: () => this.loading(), pending: () => this.loading(), error: (error) => this.loadError(error) })}`;
  }

  #form(draft: Draft): TemplateResult {
    const colour = /^#[0-9a-fA-F]{6}$/.test(draft.brandColor) ? draft.brandColor : DEFAULT_BRAND;
    const write = this.can('settings.write');
    return html`<div class="layout">
      <form @input=${this.#input} @submit=${this.#save} novalidate>
        ${this.#field('name', this.t('settings.name'), 'text')}
        ${this.#field('supportEmail', this.t('settings.supportEmail'), 'email')}
        ${this.#field('logoUrl', this.t('settings.logo'), 'url', this.t('settings.logoHint'))}
        <div class="colour">
          ${this.#field('brandColor', this.t('settings.brandColor'), 'text', this.t('settings.brandColorHint'))}
          <input type="color" name="brandColor" .value=${colour} ?disabled=${!write} aria-label=${this.t('settings.brandColorPicker')} />
        </div>
        ${write ? html`<div class="buttons"><button class="primary" type="submit" ?disabled=${this.saving}>${this.t('settings.save')}</button></div>` : html`<p class="hint">${this.t('settings.readOnly')}</p>`}
      </form>
      <aside aria-labelledby="brand-preview-title">
        <h2 id="brand-preview-title">${this.t('settings.preview')}</h2>
        <div class="checkout">
          <p class="merchant"><span class="monogram" aria-hidden="true">${draft.name.trim().slice(0, 2).toUpperCase()}</span> ${draft.name}</p>
          ${draft.logoUrl.trim() ? html`<p class="hint">${this.t('settings.logoPreview')}</p>` : nothing}
          <p class="amount">${this.localizer.money(12000, 'NGN')}</p>
          <svg class="pay" viewBox="0 0 300 48" role="img" aria-label=${this.t('settings.payButton', { colour })}>
            <rect width="300" height="48" rx="8" fill=${colour}></rect>
            <text x="150" y="30" text-anchor="middle" fill=${contrastText(colour)} font-weight="600" font-size="16">${this.t('links.previewPay')}</text>
          </svg>
          <p class="hint">${this.t('settings.support', { email: draft.supportEmail })}</p>
        </div>
      </aside>
    </div>`;
  }
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
function contrastText(hex: string): string {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-settings': DashSettings;
  }
}
