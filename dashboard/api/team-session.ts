import './zod-config.ts';
import * as team from '../../shared/contract/team.ts';
import { ApiError, type ApiClient, type DataOf } from './client.ts';
import { SessionError, type Me, type Mode, type SecondFactor, type SessionApi, type SessionFailure, type SessionState, type SignInStep, type StepUpProof, type TotpSecret } from './session.ts';
import { CeremonyError, getAssertion } from './webauthn.ts';

type SignInState = DataOf<typeof team.signIn>;

/**
 * `SessionApi` over the team contract (`shared/contract/team.ts`): every call through `ApiClient.call`, every
 * refusal turned into a `SessionError` by its envelope code and reason, never its wording. Each sign-in step opens
 * a new server-side session; its answer's CSRF token goes into `SessionState` for the next step.
 */
export class TeamSession implements SessionApi {
  /** Which call confirms an authenticator app: the sign-in's enrolment step, or a signed-in member's own. */
  #enrolling: 'sign_in' | 'member' | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly state: SessionState,
  ) {}

  async me(): Promise<Me | null> {
    try {
      const me = await this.api.call(team.me);
      this.state.adopt(me);
      return me;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  }

  signInWithPassword(email: string, password: string): Promise<SignInStep> {
    return this.#step(() => this.api.call(team.signIn, { body: { email, password } }));
  }

  async verifySecondFactor(factor: SecondFactor, code: string): Promise<Me> {
    const step = await this.#step(() => this.api.call(team.signInSecondFactor, { body: { method: factor, code } }));
    return this.#signedIn(step);
  }

  async signInWithPasskey(): Promise<Me> {
    const step = await this.#step(async () => {
      const { options } = await this.api.call(team.signInPasskeyOptions);
      return this.api.call(team.signInPasskey, { body: { response: await getAssertion(options) } });
    });
    return this.#signedIn(step);
  }

  acceptInvitation(token: string, password: string): Promise<SignInStep> {
    return this.#step(() => this.api.call(team.acceptInvitation, { body: { token, password } }));
  }

  async startTotp(password: string): Promise<TotpSecret> {
    const secret = await this.#refusals(() => this.api.call(team.startTotp, { body: { password } }));
    this.#enrolling = 'member';
    return secret;
  }

  async confirmTotp(code: string): Promise<{ me: Me; backupCodes: string[] }> {
    if (this.#enrolling === 'member') {
      const { backupCodes } = await this.#refusals(() => this.api.call(team.confirmTotp, { body: { code } }));
      this.#enrolling = undefined;
      return { me: await this.#current(), backupCodes };
    }
    let codes: string[] = [];
    const step = await this.#step(async () => {
      const answer = await this.api.call(team.signInEnrolTotp, { body: { code } });
      codes = answer.backupCodes ?? [];
      return answer;
    });
    return { me: await this.#signedIn(step), backupCodes: codes };
  }

  async stepUp(proof: StepUpProof): Promise<void> {
    await this.#refusals(async () => {
      const body =
        proof.method === 'passkey'
          ? { method: 'passkey' as const, response: await getAssertion((await this.api.call(team.stepUpPasskeyOptions)).options) }
          : proof.method === 'totp'
            ? { method: 'totp' as const, code: proof.code }
            : { method: 'backup_code' as const, code: proof.code };
      const { csrfToken } = await this.api.call(team.stepUp, { body });
      this.state.csrfToken = csrfToken;
    });
  }

  async switchMode(mode: Mode): Promise<Me> {
    const previous = this.state.mode;
    this.state.mode = mode;
    try {
      return await this.#current();
    } catch (error) {
      this.state.mode = previous;
      throw error;
    }
  }

  async signOut(): Promise<void> {
    try {
      await this.api.call(team.signOut);
    } finally {
      this.state.clear();
    }
  }

  async #current(): Promise<Me> {
    const me = await this.me();
    if (!me) throw new SessionError('sign_in_expired');
    return me;
  }

  async #signedIn(step: SignInStep): Promise<Me> {
    if (step.step === 'signed_in') return step.me;
    throw new SessionError('invalid_code');
  }

  /** A sign-in step: its CSRF token kept, and what comes next. */
  async #step(call: () => Promise<SignInState>): Promise<SignInStep> {
    const answer = await this.#refusals(call);
    this.state.csrfToken = answer.csrfToken;
    switch (answer.status) {
      case 'signed_in':
        return { step: 'signed_in', me: await this.#current() };
      case 'enrolment_required':
        this.#enrolling = 'sign_in';
        return { step: 'enrol_totp', totp: answer.totp! };
      case 'second_factor_required':
        return {
          step: 'second_factor',
          factors: answer.secondFactors.filter((factor): factor is SecondFactor => factor !== 'passkey'),
          passkey: answer.secondFactors.includes('passkey'),
        };
    }
  }

  async #refusals<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new SessionError(failureOf(error));
    }
  }
}

/** A refusal in the screens' words, from the envelope's code and reason. */
function failureOf(error: unknown): SessionFailure {
  if (error instanceof SessionError) return error.failure;
  if (error instanceof CeremonyError) return error.failure === 'cancelled' ? 'passkey_cancelled' : 'passkey_unavailable';
  if (!(error instanceof ApiError)) return 'network';
  switch (error.reason) {
    case 'credentials_invalid':
      return 'invalid_credentials';
    case 'second_factor_invalid':
      return 'invalid_code';
    case 'token_invalid':
      return 'invitation_invalid';
    case 'password_rejected':
      return 'weak_password';
    case 'session_expired':
    case 'csrf_token_invalid':
      return 'sign_in_expired';
  }
  if (error.code === 'RATE429') return 'too_many_attempts';
  if (error.code === 'VAL400') return 'invalid_code';
  if (error.code === 'NETWORK') return 'network';
  return error.status === 401 ? 'invalid_credentials' : 'network';
}
