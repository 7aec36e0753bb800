// Path templates like "/tenants/:tenant/users/:id" matched against a request path, so route tables
// read as the API reference does instead of as regular expressions.

export type PathParams = Record<string, string>;
export type PathMatcher = (path: string) => PathParams | undefined;

export interface PathOptions {
  /**
   * Default true: parameters are URL-decoded and a path whose parameter cannot be decoded does not
   * match. False hands them over as sent, for a handler that answers an undecodable one itself.
   */
  decode?: boolean;
}

const PARAM = /^:([A-Za-z_]\w*)(.*)$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A matcher for `template`. A ":name" segment matches one non-empty segment; literal text may follow
 * the name in the same segment (":uri.pdf" matches "x.pdf" with uri "x").
 */
export function compilePath(template: string, options: PathOptions = {}): PathMatcher {
  const decode = options.decode ?? true;
  const names: string[] = [];
  const source = template
    .split("/")
    .map((segment) => {
      const param = PARAM.exec(segment);
      if (!param) return escapeRegExp(segment);
      names.push(param[1] ?? "");
      return `([^/]+)${escapeRegExp(param[2] ?? "")}`;
    })
    .join("/");
  const pattern = new RegExp(`^${source}$`);
  return (path) => {
    const match = pattern.exec(path);
    if (!match) return undefined;
    const params: PathParams = {};
    for (const [i, name] of names.entries()) {
      const value = match[i + 1] ?? "";
      const decoded = decode ? decodedSegment(value) : value;
      if (decoded === undefined) return undefined;
      params[name] = decoded;
    }
    return params;
  };
}

/** A URL-encoded path segment decoded, or undefined when its escapes are malformed. */
export function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
