import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { ROLES, type Role } from '../../shared/contract/permissions.ts';
import { changeRole, inviteMember, listMembers, removeMember, type memberSchema } from '../../shared/contract/team.ts';
import type { z } from 'zod';
import { OperationsScreen } from './operations-base.ts';
import { operationsStyles } from './operations.styles.ts';

type Member = z.infer<typeof memberSchema>;

/** The team: every member and invitation with role, second factors and last sign-in; invite, change a role, remove. */
@customElement('dash-team')
export class DashTeam extends OperationsScreen {
  static override styles = operationsStyles;

  @state() private invited: { email: string; url: string } | undefined;
  @state() private emailError = '';
  @state() private confirmRemove: number | undefined;
  @query('#invite-email') private emailInput!: HTMLInputElement;
  @query('#invite-role') private roleSelect!: HTMLSelectElement;

  readonly #members = new Task(this, { task: ([], { signal }) => this.api.call(listMembers, { signal }), args: () => [] as const });

  async #invite(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const email = this.emailInput.value.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      this.emailError = this.t('signIn.emailInvalid');
      this.emailInput.focus();
      return;
    }
    this.emailError = '';
    const done = await this.act(() => this.api.call(inviteMember, { body: { email, role: this.roleSelect.value as Role } }));
    if (!done) return;
    this.invited = { email, url: done.acceptUrl };
    this.emailInput.value = '';
    this.announce(this.t('team.invited', { email }));
    void this.#members.run();
  }

  async #role(member: Member, role: Role): Promise<void> {
    const done = await this.act(() => this.api.call(changeRole, { params: { memberId: member.id }, body: { role } }));
    if (done) this.announce(this.t('team.roleChanged', { email: member.email, role: this.t(`role.${role}`) }));
    void this.#members.run();
  }

  async #remove(member: Member): Promise<void> {
    this.confirmRemove = undefined;
    const done = await this.act(() => this.api.call(removeMember, { params: { memberId: member.id } }));
    if (!done) return;
    this.announce(this.t('team.removed', { email: member.email }));
    void this.#members.run();
  }

  protected override render(): TemplateResult {
    return html`<h1>${this.t('team.title')}</h1>
      ${this.chrome()}
      <section aria-labelledby="invite-title" class="panel">
        <h2 id="invite-title">${this.t('team.invite')}</h2>
        <form class="toolbar" @submit=${this.#invite} novalidate>
          <div class="field">
            <label for="invite-email">${this.t('signIn.email')}</label>
            <input id="invite-email" type="email" autocomplete="off" aria-invalid=${this.emailError ? 'true' : 'false'} aria-describedby=${this.emailError ? 'invite-email-error' : nothing} />
            ${this.emailError ? html`<p class="field-error" id="invite-email-error">${this.emailError}</p>` : nothing}
          </div>
          <div class="field">
            <label for="invite-role">${this.t('team.role')}</label>
            <select id="invite-role">${ROLES.map((role) => html`<option value=${role} ?selected=${role === 'viewer'}>${this.t(`role.${role}`)}</option>`)}</select>
          </div>
          <button class="primary" type="submit">${this.t('team.send')}</button>
        </form>
        ${this.invited ? html`<div class="secret" role="status"><p>${this.t('team.inviteLink', { email: this.invited.email })}</p><p class="mono">${this.invited.url}</p></div>` : nothing}
      </section>
      <section aria-labelledby="members-title">
        <h2 id="members-title">${this.t('team.members')}</h2>
        ${this.#members.render({ initial: () => this.loading(), pending: () => this.loading(), error: (error) => this.loadError(error), complete: (members) => this.#table(members) })}
      </section>`;
  }

  #table(members: Member[]): TemplateResult {
    const l = (key: Parameters<typeof this.t>[0]) => this.t(key);
    return html`<table class="responsive">
      <thead><tr><th scope="col">${l('signIn.email')}</th><th scope="col">${l('team.role')}</th><th scope="col">${l('team.twoFactor')}</th><th scope="col">${l('team.lastSignIn')}</th><th scope="col">${l('common.actions')}</th></tr></thead>
      <tbody>${members.map((member) => {
        const factors = [member.twoFactor.totp ? this.t('team.totp') : '', member.twoFactor.passkeys > 0 ? this.localizer.plural(member.twoFactor.passkeys, 'team.passkeys.one', 'team.passkeys.other') : ''].filter(Boolean);
        return html`<tr data-member=${member.id}>
          <td data-label=${l('signIn.email')}>${member.email}${member.status === 'invited' ? html` <span class="badge">${this.t('team.pending')}</span>` : nothing}</td>
          <td data-label=${l('team.role')}>
            <label class="visually-hidden" for="role-${member.id}">${this.t('team.roleOf', { email: member.email })}</label>
            <select id="role-${member.id}" @change=${(event: Event) => this.#role(member, (event.target as HTMLSelectElement).value as Role)}>
              ${ROLES.map((role) => html`<option value=${role} ?selected=${member.role === role}>${this.t(`role.${role}`)}</option>`)}
            </select>
          </td>
          <td data-label=${l('team.twoFactor')}>${factors.length > 0 ? factors.join(', ') : html`<span class="badge off">${this.t('team.noTwoFactor')}</span>`}</td>
          <td data-label=${l('team.lastSignIn')}>${member.lastSignInAt ? this.localizer.dateTime(member.lastSignInAt) : this.t('team.never')}</td>
          <td data-label=${l('common.actions')}>${this.confirmRemove === member.id
            ? html`<div class="row-actions"><button class="danger" @click=${() => this.#remove(member)}>${this.t('team.confirmRemove')}</button><button @click=${() => (this.confirmRemove = undefined)}>${this.t('common.cancel')}</button></div>`
            : html`<button @click=${() => (this.confirmRemove = member.id)} aria-label=${this.t('team.removeOf', { email: member.email })}>${this.t('common.remove')}</button>`}</td>
        </tr>`;
      })}</tbody>
    </table>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dash-team': DashTeam;
  }
}
