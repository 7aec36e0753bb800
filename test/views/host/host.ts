// A small MCP Apps host for the view tests, built on the extension's host side (AppBridge): it puts a
// view's HTML in a sandboxed frame (scripts only: no same origin, no forms, no popups), speaks to it over
// postMessage, and hands it one tool call's input and result, as Claude, ChatGPT or VS Code would.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface ToolCall {
  arguments: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: the tool result as the MCP client returned it
  result: any;
}

declare global {
  interface Window {
    renderView(html: string, call: ToolCall): Promise<void>;
  }
}

window.renderView = async (html, call) => {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.setAttribute("title", "view");
  frame.srcdoc = html;
  document.body.replaceChildren(frame);
  const view = frame.contentWindow;
  if (!view) throw new Error("the frame has no window");
  const bridge = new AppBridge(
    null,
    { name: "lab-mcp view tests", version: "1.0.0" },
    { openLinks: {}, logging: {} },
    { hostContext: { theme: "light", displayMode: "inline" } },
  );
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${Math.ceil(height)}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(view, view));
  await initialized;
  await bridge.sendToolInput({ arguments: call.arguments });
  await bridge.sendToolResult(call.result);
};
