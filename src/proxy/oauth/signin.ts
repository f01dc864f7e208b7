// One remote server's sign-in in this process: the browser, the loopback redirect, the tokens.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import getPort from 'get-port';
import { errorMessage, HubError } from '../../core/errors.js';
import { readOAuthState, updateOAuthState } from '../../store/oauth-store.js';
import { HubOAuthProvider } from './provider.js';
import { SignInRequired } from './required.js';

// The person signs in in a browser; the authorization server sends the browser back to a
// listener on 127.0.0.1 (RFC 8252 loopback redirect), which exchanges the code for tokens.
export const SIGN_IN_TIMEOUT_MS = 10 * 60_000;
const POLL_MS = 1000;
const CALLBACK_PATH = '/callback';
// Sign-ins completed in a row with no request of the server answered in between: the server keeps
// refusing what the person granted (a step-up that never succeeds), so hub stops asking.
export const MAX_SIGN_INS_WITHOUT_SUCCESS = 2;

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${text.replace(/[<>&]/g, c => `&#${c.charCodeAt(0)};`)}</p>\n`;

/** One remote server's OAuth client in this process: the provider and the sign-in in progress, if any. */
export class SignIn {
  static #all = new Map<string, SignIn>();

  /** The one SignIn of this auth file in this process (its loopback port is kept). */
  static async for(file: string, serverUrl: string, server: string): Promise<SignIn> {
    const known = SignIn.#all.get(file);
    if (known && known.serverUrl === serverUrl) return known;
    // The port the client was registered with, when free; else any (the client registers again).
    const registered = readOAuthState(file, serverUrl)?.redirectUri;
    const preferred = registered === undefined ? undefined : Number(new URL(registered).port);
    const port = await getPort({ host: '127.0.0.1', ...(preferred !== undefined && { port: preferred }) });
    const signIn = new SignIn(file, serverUrl, server, `http://127.0.0.1:${port}${CALLBACK_PATH}`, port);
    SignIn.#all.set(file, signIn);
    return signIn;
  }

  readonly provider: HubOAuthProvider;
  #url: URL | undefined;
  #done: Promise<void> | undefined;
  #finish: ((error?: Error) => void) | undefined;
  #listener: Server | undefined;
  #listening: Promise<void> | undefined;
  #deadline = 0;
  // Completed sign-ins since the server last answered a request, and the token the last one saved.
  #unanswered = 0;
  #lastToken: string | undefined;
  // Every link handed out while this sign-in waits stays good: its state and PKCE verifier.
  readonly #links = new Map<string, { readonly verifier: string; readonly client: string | undefined }>();

  private constructor(
    readonly file: string,
    readonly serverUrl: string,
    readonly server: string,
    readonly redirectUri: string,
    private readonly port: number,
  ) {
    this.provider = new HubOAuthProvider(file, serverUrl, redirectUri, url => this.#begin(url));
  }

  /** A sign-in is waiting for the person (and has not timed out). */
  get pending(): boolean {
    return this.#done !== undefined && Date.now() < this.#deadline;
  }

  /** The error to answer with while a sign-in is waiting, so a retry does not make a new URL. */
  required(): SignInRequired | undefined {
    if (!this.pending || !this.#url || !this.#done) return undefined;
    return new SignInRequired(this.server, this.#url.href, this.#done);
  }

  /** Resolves when the loopback listener accepts connections. */
  async ready(): Promise<void> {
    await this.#listening;
  }

  /** The server answered a request: the sign-ins so far were not in vain. */
  succeeded(): void {
    this.#unanswered = 0;
  }

  /** Ends the sign-in in progress (it failed): its link is never handed out again. */
  cancel(reason = 'the sign-in failed'): void {
    this.#finish?.(new Error(reason));
  }

  // The SDK made an authorization URL (a new one each time: state and verifier change with it).
  #begin(url: URL): void {
    const stored = readOAuthState(this.file, this.serverUrl)?.tokens?.access_token;
    // Tokens saved elsewhere since (`hub login`, another hub) start the count again.
    if (stored !== this.#lastToken) this.#unanswered = 0;
    if (this.#unanswered >= MAX_SIGN_INS_WITHOUT_SUCCESS)
      throw new HubError(
        'AUTH_REQUIRED',
        `Server "${this.server}" still refuses hub after ${this.#unanswered} sign-ins in a row (it asks for scope ${JSON.stringify(url.searchParams.get('scope') ?? '')} again), so hub stops asking: check that your account may have that access, then run \`hub-mcp login ${this.server}\`.`,
      );
    const state = url.searchParams.get('state');
    const challenge = url.searchParams.get('code_challenge');
    const verifier = this.provider.verifiers.find(
      candidate => createHash('sha256').update(candidate).digest('base64url') === challenge,
    );
    if (state !== null && verifier !== undefined)
      this.#links.set(state, { verifier, client: url.searchParams.get('client_id') ?? undefined });
    this.#url = url;
    this.#deadline = Date.now() + SIGN_IN_TIMEOUT_MS;
    if (this.#done) return;
    const before = readOAuthState(this.file, this.serverUrl)?.tokens?.access_token;
    this.#done = new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        // Tokens another process saved (`hub login`, another hub) end this sign-in too.
        const now = readOAuthState(this.file, this.serverUrl)?.tokens?.access_token;
        if (now !== undefined && now !== before) this.#finish?.();
        else if (Date.now() >= this.#deadline) this.#finish?.(new Error('the sign-in was not completed in time'));
      }, POLL_MS);
      poll.unref();
      this.#finish = error => {
        clearInterval(poll);
        this.#links.clear();
        if (!error) {
          this.#unanswered += 1;
          this.#lastToken = readOAuthState(this.file, this.serverUrl)?.tokens?.access_token;
        }
        this.#done = undefined;
        this.#finish = undefined;
        this.#listener?.close();
        this.#listener = undefined;
        if (error) reject(error);
        else resolve();
      };
    });
    this.#done.catch(() => undefined);
    this.#listening = this.#listen();
  }

  #listen(): Promise<void> {
    const listener = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.redirectUri);
      if (url.pathname !== CALLBACK_PATH) return void res.writeHead(404).end();
      const reply = (status: number, title: string, text: string) =>
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page(title, text));
      const error = url.searchParams.get('error');
      if (error !== null) {
        reply(400, 'Sign-in failed', `Sign-in to ${this.server} failed: ${error}. Try again from hub.`);
        return this.cancel(`the authorization server refused the sign-in (${error})`);
      }
      const code = url.searchParams.get('code');
      const state = url.searchParams.get('state');
      const link = state === null ? undefined : this.#links.get(state);
      if (code === null || state === null || link === undefined)
        return reply(
          400,
          'Sign-in failed',
          'This sign-in link is outdated or incomplete; use the latest one hub gave.',
        );
      // The verifier and client of the link the person opened: a later link (another flow that
      // registered again) may have replaced both in the file, and the code is only good for its own.
      const client = link.client === undefined ? undefined : this.provider.registered.get(link.client);
      updateOAuthState(this.file, this.serverUrl, current => ({
        ...current,
        state,
        codeVerifier: link.verifier,
        ...(client && { clientInformation: client, redirectUri: this.redirectUri }),
      }));
      auth(this.provider, { serverUrl: this.serverUrl, authorizationCode: code }).then(
        result => {
          reply(200, 'Signed in', `Signed in to ${this.server}. You can close this tab.`);
          if (result === 'AUTHORIZED') this.#finish?.();
        },
        (failure: unknown) => {
          reply(502, 'Sign-in failed', `Sign-in to ${this.server} failed: ${errorMessage(failure)}`);
          this.cancel(`the sign-in failed (${errorMessage(failure)})`);
        },
      );
    });
    listener.unref();
    this.#listener = listener;
    return new Promise((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  /** Resolves when the sign-in in progress completes (undefined when none is). */
  get done(): Promise<void> | undefined {
    return this.#done;
  }
}
