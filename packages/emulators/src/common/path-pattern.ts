// Path templates like "/tenants/:tenant/users/:id" matched against a request path, so route tables
// read as the API reference does instead of as regular expressions.

export type PathParams = Record<string, string>;
export type PathMatcher = (path: string) => PathParams | undefined;

/** A matcher for `template`; each ":name" segment matches one non-empty segment (URL-decoded). */
export function compilePath(template: string): PathMatcher {
  const names: string[] = [];
  const source = template
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(segment.slice(1));
      return "([^/]+)";
    })
    .join("/");
  const pattern = new RegExp(`^${source}$`);
  return (path) => {
    const match = pattern.exec(path);
    if (!match) return undefined;
    const params: PathParams = {};
    for (const [i, name] of names.entries()) {
      try {
        params[name] = decodeURIComponent(match[i + 1] ?? "");
      } catch {
        return undefined;
      }
    }
    return params;
  };
}
