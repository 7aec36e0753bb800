// Which credential the server uses: the configured one; else an API key the user asked us to
// remember; else one asked for now through a local password page. Over stdio an asked key serves the
// process (the one client is the user who started it), in memory unless the user ticks "remember",
// which stores it in their config folder with mode 0600. Over HTTP an asked key belongs to the client
// session that typed it: in memory, never stored, never used for another client, and no client waits
// on another's page.
import { z } from "zod";
import type { ClientSession } from "../../core/context.js";
import { ActionableError } from "../../core/errors.js";
import { readJsonIfPresent, writePrivateJson } from "../../core/user-config.js";
import { apiKeyCredential } from "./auth/api-key.js";
import type { LabdataCredential } from "./auth/credential.js";
import type { LabdataScope } from "./client.js";
import { SETUP_HINT } from "./settings.js";

const rememberedSchema = z.object({ baseUrl: z.string(), apiKey: z.string().min(1) });

type Verify = (credential: LabdataCredential) => Promise<void>;

export class LabdataCredentialSource {
  /** The operator's credential (configured or remembered), or the key asked for over stdio. */
  private current: LabdataCredential | undefined;
  private asking: Promise<LabdataCredential> | undefined;
  /** Over HTTP: each client session's own key, asked for (or being asked for) on its own page. */
  private readonly bySession = new WeakMap<ClientSession, Promise<LabdataCredential>>();

  constructor(
    configured: LabdataCredential | undefined,
    private readonly store: { file: string; baseUrl: string },
  ) {
    this.current = configured;
  }

  /** The credential to use, asking the user once when none is known. */
  async get(ctx: LabdataScope, verify: Verify): Promise<LabdataCredential> {
    if (this.current) return this.current;
    const remembered = await this.remembered();
    if (remembered) {
      this.current = remembered;
      return remembered;
    }
    if (ctx.clientSession.isolated) return this.forSession(ctx, verify);
    // Concurrent calls wait for the same page rather than opening one each.
    this.asking ??= this.ask(ctx, verify)
      .then((credential) => {
        this.current = credential;
        return credential;
      })
      .finally(() => {
        this.asking = undefined;
      });
    return this.asking;
  }

  /** The calling session's own key; its concurrent calls share one page, other sessions never see it. */
  private forSession(ctx: LabdataScope, verify: Verify): Promise<LabdataCredential> {
    const session = ctx.clientSession;
    const known = this.bySession.get(session);
    if (known) return known;
    const asking = this.ask(ctx, verify);
    this.bySession.set(session, asking);
    // A page declined or a wrong key: the next call of this session asks again.
    asking.catch(() => {
      if (this.bySession.get(session) === asking) this.bySession.delete(session);
    });
    return asking;
  }

  private async remembered(): Promise<LabdataCredential | undefined> {
    const parsed = rememberedSchema.safeParse(
      await readJsonIfPresent(this.store.file).catch(() => undefined),
    );
    if (!parsed.success || parsed.data.baseUrl !== this.store.baseUrl) return undefined;
    return apiKeyCredential(parsed.data.apiKey);
  }

  private async ask(ctx: LabdataScope, verify: Verify): Promise<LabdataCredential> {
    const sessionOnly = ctx.clientSession.isolated;
    const answer = await ctx.askForSecret({
      message: "labdata_mcp needs an API key of the lab data platform. Open the page to enter it.",
      title: "Lab data platform API key",
      label: `API key for ${this.store.baseUrl} (from your profile settings)`,
      offerRemember: !sessionOnly,
    });
    if (!answer) throw new ActionableError(`No credentials for the lab data platform. ${SETUP_HINT}.`);
    const credential = apiKeyCredential(answer.secret);
    await verify(credential); // a wrong key is neither kept nor stored
    if (answer.remember && !sessionOnly)
      await writePrivateJson(this.store.file, { baseUrl: this.store.baseUrl, apiKey: answer.secret });
    return credential;
  }
}
