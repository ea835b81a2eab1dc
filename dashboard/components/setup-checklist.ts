import { html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { SetupStatus } from '../api/session.ts';
import { DashElement } from '../base.ts';
import { styles } from './setup-checklist.styles.ts';

const STEPS: readonly (keyof SetupStatus)[] = ['apiKeys', 'allowedOrigin', 'webhook', 'firstTestPayment', 'logo'];

/** Home's setup checklist: what is done and what is left, each step's state in words as well as by its mark. */
@customElement('dash-setup-checklist')
export class DashSetupChecklist extends DashElement {
  static override styles = styles;

  @property({ attribute: false }) setup: SetupStatus | undefined;

  protected override render() {
    const setup = this.setup;
    if (!setup) return html``;
    const done = STEPS.filter((step) => setup[step]).length;
    return html`<h2 id="setup-title">${this.t('setup.title')}</h2>
      <p class="muted" id="setup-progress">${this.t('setup.progress', { done, total: STEPS.length })}</p>
      <progress max=${STEPS.length} .value=${done} aria-labelledby="setup-title" aria-describedby="setup-progress"></progress>
      <ul>
        ${STEPS.map(
          (step) => html`<li class=${setup[step] ? 'done' : 'todo'}>
            <span class="mark" aria-hidden="true">${setup[step] ? '✓' : ''}</span>
            <span class="step">${this.t(`setup.${step}`)}</span>
            <span class="visually-hidden">: ${setup[step] ? this.t('setup.done') : this.t('setup.todo')}</span>
          </li>`,
        )}
      </ul>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-setup-checklist': DashSetupChecklist;
  }
}
