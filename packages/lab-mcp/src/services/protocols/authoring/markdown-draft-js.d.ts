// The one function of markdown-draft-js (2.4.0) we call; the package ships no types of its own.
declare module "markdown-draft-js" {
  interface RawDraft {
    blocks: Array<Record<string, unknown>>;
    entityMap: Record<string, unknown>;
  }
  export function markdownToDraft(markdown: string, options?: Record<string, unknown>): RawDraft;
}
