// Which credential the server uses: the configured one; else an API key the user asked us to
// remember; else one asked for now through a local password page. Asked keys live in memory unless
// the user ticks "remember", which stores them in their config folder with mode 0600.
import { z } from "zod";
import type { ToolContext } from "../../core/context.js";
import { ActionableError } from "../../core/errors.js";
import { readJsonIfPresent, writePrivateJson } from "../../core/user-config.js";
import { apiKeyCredential } from "./auth/api-key.js";
import type { LabdataCredential } from "./auth/credential.js";
import { SETUP_HINT } from "./settings.js";

const rememberedSchema = z.object({ baseUrl: z.string(), apiKey: z.string().min(1) });

export class CredentialHolder {
  private current: LabdataCredential | undefined;
  private asking: Promise<LabdataCredential> | undefined;

  constructor(
    configured: LabdataCredential | undefined,
    private readonly store: { file: string; baseUrl: string },
  ) {
    this.current = configured;
  }

  /** The credential to use, asking the user once when none is known. */
  async get(
    ctx: ToolContext,
    verify: (credential: LabdataCredential) => Promise<void>,
  ): Promise<LabdataCredential> {
    if (this.current) return this.current;
    const remembered = await this.remembered();
    if (remembered) {
      this.current = remembered;
      return remembered;
    }
    // Concurrent calls wait for the same page rather than opening one each.
    this.asking ??= this.ask(ctx, verify).finally(() => {
      this.asking = undefined;
    });
    return this.asking;
  }

  private async remembered(): Promise<LabdataCredential | undefined> {
    const parsed = rememberedSchema.safeParse(
      await readJsonIfPresent(this.store.file).catch(() => undefined),
    );
    if (!parsed.success || parsed.data.baseUrl !== this.store.baseUrl) return undefined;
    return apiKeyCredential(parsed.data.apiKey);
  }

  private async ask(
    ctx: ToolContext,
    verify: (credential: LabdataCredential) => Promise<void>,
  ): Promise<LabdataCredential> {
    const answer = await ctx.askForSecret({
      message: "labdata_mcp needs an API key of the lab data platform. Open the page to enter it.",
      title: "Lab data platform API key",
      label: `API key for ${this.store.baseUrl} (from your profile settings)`,
      offerRemember: true,
    });
    if (!answer) throw new ActionableError(`No credentials for the lab data platform. ${SETUP_HINT}.`);
    const credential = apiKeyCredential(answer.secret);
    await verify(credential); // a wrong key is neither kept nor stored
    this.current = credential;
    if (answer.remember)
      await writePrivateJson(this.store.file, { baseUrl: this.store.baseUrl, apiKey: answer.secret });
    return credential;
  }
}
