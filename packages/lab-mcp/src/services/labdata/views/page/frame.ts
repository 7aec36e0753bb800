// The view's side of MCP Apps: the extension's App connects to the host, and every tool result the host
// sends is drawn from its structured content alone (the page makes no request of its own).
import { App, applyDocumentTheme } from "@modelcontextprotocol/ext-apps";
import { h } from "./dom.js";
import { type Data, record } from "./read.js";

/** Draws the picture of one answer into `root`; says so in words when the answer has nothing to draw. */
export type Draw = (structured: Data, root: HTMLElement) => void;

export function startView(name: string, draw: Draw): void {
  const root = document.getElementById("view") ?? document.body;
  const show = (...nodes: Node[]) => root.replaceChildren(...nodes);
  const app = new App({ name, version: "1.0.0" });
  app.ontoolresult = (result) => {
    const structured = record(result.structuredContent);
    if (result.isError || !structured) {
      show(
        h("p", { class: "note" }, result.isError ? "The tool answered with an error." : "Nothing to draw."),
      );
      return;
    }
    drawn = structured;
    root.replaceChildren();
    draw(structured, root);
  };
  // Drawn again for a new width, so that text stays readable in a narrow frame.
  let drawn: Data | undefined;
  let pending = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      if (!drawn) return;
      root.replaceChildren();
      draw(drawn, root);
    });
  });
  app.onhostcontextchanged = (context) => {
    if (context.theme) applyDocumentTheme(context.theme);
  };
  show(h("p", { class: "note" }, "Waiting for the tool's answer…"));
  void app.connect().then(() => {
    const theme = app.getHostContext()?.theme;
    if (theme) applyDocumentTheme(theme);
  });
}
